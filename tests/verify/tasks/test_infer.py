"""Which task a ladder uses: inference rules from the output shapes, declarations checked against them."""
import numpy as np
import pytest

from npuready.errors import InputError
from npuready.verify.tasks.infer import choose, infer


@pytest.mark.parametrize("shapes, hw, task", [
    ([(1, 10)], (28, 28), "classification"),
    ([(1, 1, 320, 320)], (320, 320), "dense"),
    ([(1, 40, 6625)], (48, 320), "sequence"),
    ([(1, 22, 2100)], (320, 320), "detection"),
    ([(1, 3549, 6)], (416, 416), "detection"),
    ([(1, 4), (1, 2)], (24, 24), "regression"),
    ([(1, 4, 19, 19), (1, 2, 19, 19)], (48, 48), "regression"),
    ([(1, 8, 10, 10)], (40, 40), "regression"),
    ([(1, 1)], (8, 8), "regression"),
])
def test_inference_rules(shapes, hw, task):
    assert infer(shapes, hw)[0] == task


def test_the_choice_says_what_it_was_inferred_from():
    assert choose(None, [(1, 40, 6625)], ["softmax"], (48, 320)).line() == \
        "task: sequence (inferred from output [1, 40, 6625])"
    c = choose(None, [(1, 22, 2100)], ["output0"], (320, 320))
    assert c.line() == ("task: detection (inferred from output [1, 22, 2100]: 2100 anchors of a 320×320 input's "
                        "stride-8/16/32 grids, yolov8 layout [1, 4 + classes, anchors])")
    assert c.options["layout"] == "yolov8" and c.options["input_hw"] == (320, 320)
    assert choose(None, [(1, 3549, 6)], ["output"], (416, 416)).options["layout"] == "yolox"
    assert choose(None, [(1, 4), (1, 2)], ["boxes", "probs"]).why == "inferred from 2 outputs [1, 4], [1, 2]"


def test_a_declared_task_wins_and_says_so():
    c = choose("regression", [(1, 10)], ["logits"])
    assert (c.name, c.source, c.line()) == ("regression", "declared", "task: regression (declared; output [1, 10])")
    assert c.options["output_names"] == ("logits",)


@pytest.mark.parametrize("task, shape, message", [
    ("detection", (1, 10), "is not a YOLO head"),
    ("sequence", (1, 10), "is not \\[1, steps, classes\\]"),
    ("dense", (1, 10), "is not a map"),
    ("nope", (1, 10), "unknown task; use one of classification, dense, sequence, detection, regression"),
])
def test_a_declared_task_the_outputs_cannot_carry_is_refused(task, shape, message):
    with pytest.raises(InputError, match=message):
        choose(task, [shape])


def test_inference_agrees_with_every_trained_models_task():
    """The catalog states each trained model's task; inferring it from one float run's outputs gives the same."""
    import onnxruntime as ort

    from npuready.thirdparty.catalog import MODELS

    for m in MODELS.values():
        s = ort.InferenceSession(str(m.path()), providers=["CPUExecutionProvider"])
        inp = s.get_inputs()[0]
        shape = m.pins.get(inp.name) or tuple(d if isinstance(d, int) and d > 0 else 1 for d in inp.shape)
        outs = s.run(None, {inp.name: np.zeros(shape, np.float32)})
        assert infer([o.shape for o in outs], tuple(shape[-2:]))[0] == m.task, m.name
