"""Which task metric a ladder uses: the one declared (``--task``, a report spec's ``task``) or one inferred
from the float model's output shapes (per image, batch 1), the choice always stated.

Inference rules, in order:
1. several outputs → regression (e.g. MTCNN's box regression + face probability heads);
2. one output [1, K], K ≥ 2 → classification;
3. one output [1, 1, H, W] → dense (a probability map, as DBNet's);
4. one output [1, a, b] with a dim equal to the anchor count of the input's stride-8/16/32 grids → detection
   (b = anchors: yolov8 layout [1, 4 + classes, anchors]; a = anchors: yolox [1, anchors, 5 + classes];
   a = 3 × anchors: yolov5);
5. any other [1, T, C] → sequence (CTC over T steps of C classes);
6. anything else → regression.
"""
from __future__ import annotations

from typing import Sequence

from npuready.errors import InputError
from npuready.verify.tasks.metric import TaskChoice
from npuready.verify.tasks.registry import get
from npuready.verify.tasks.yolo_postprocess import grid_anchors


def _shape(s) -> str:
    return "[" + ", ".join(str(d) for d in s) + "]"


def _outputs(shapes) -> str:
    return (f"output {_shape(shapes[0])}" if len(shapes) == 1
            else f"{len(shapes)} outputs " + ", ".join(_shape(s) for s in shapes))


def detection_layout(shape: Sequence[int], input_hw: tuple[int, int] | None) -> tuple[str, str] | None:
    """(layout, why) when ``shape`` [1, a, b] holds as many anchors as the input's stride grids, else None."""
    if len(shape) != 3 or input_hw is None:
        return None
    anchors = grid_anchors(*input_hw)
    grid = f"{anchors} anchors of a {input_hw[0]}×{input_hw[1]} input's stride-8/16/32 grids"
    _, a, b = shape
    if b == anchors and a >= 5:
        return "yolov8", f"{grid}, yolov8 layout [1, 4 + classes, anchors]"
    if a == anchors and b >= 5:
        return "yolox", f"{grid}, yolox layout [1, anchors, 5 + classes]"
    if a == 3 * anchors and b >= 5:
        return "yolov5", f"3 × {grid}, yolov5 layout [1, anchors, 5 + classes]"
    return None


def infer(shapes: Sequence[Sequence[int]], input_hw: tuple[int, int] | None = None) -> tuple[str, str]:
    """(task name, what it was inferred from)."""
    shapes = [tuple(int(d) for d in s) for s in shapes]
    where = f"inferred from {_outputs(shapes)}"
    if len(shapes) != 1:
        return "regression", where
    s = shapes[0]
    if len(s) == 2 and s[1] >= 2:
        return "classification", where
    if len(s) == 4 and s[1] == 1 and s[2] > 1 and s[3] > 1:
        return "dense", where
    det = detection_layout(s, input_hw)
    if det is not None:
        return "detection", f"{where}: {det[1]}"
    if len(s) == 3 and s[1] >= 1 and s[2] >= 2:
        return "sequence", where
    return "regression", where


def choose(declared: str | None, shapes: Sequence[Sequence[int]], output_names: Sequence[str] = (),
           input_hw: tuple[int, int] | None = None) -> TaskChoice:
    """The ladder's task: ``declared`` (validated against the outputs it needs) or the inferred one."""
    shapes = [tuple(int(d) for d in s) for s in shapes]
    if declared is None:
        name, why = infer(shapes, input_hw)
        source = "inferred"
    else:
        get(declared)
        name, why, source = declared, f"declared; {_outputs(shapes)}", "declared"
    options: dict = {"output_names": tuple(output_names)}
    first = shapes[0] if shapes else ()
    if name == "detection":
        det = detection_layout(first, input_hw)
        if det is None:
            if len(first) != 3:
                raise InputError(f"--task detection: output {_shape(first)} is not a YOLO head [1, 4 + classes, "
                                 "anchors] or [1, anchors, 5 + classes]; use --task regression")
            layout = "yolov8" if first[2] > first[1] else "yolov5"
            det = layout, f"the larger dim taken as anchors, {layout} layout (decoded boxes)"
            why = f"{why}: {det[1]}"
        options.update(layout=det[0], input_hw=tuple(input_hw or (0, 0)))
    elif name == "sequence" and len(first) != 3:
        raise InputError(f"--task sequence: output {_shape(first)} is not [1, steps, classes]; "
                         "CTC decoding needs a rank-3 output")
    elif name == "dense" and len(first) < 3:
        raise InputError(f"--task dense: output {_shape(first)} is not a map [1, 1, H, W]")
    return TaskChoice(name, source, why, options)
