"""The float model, its QDQ build and the calibration/held-out split, from a verb's arguments — the same
calibration path as ``npuready quantize`` (pinned load, refusal of an already-quantised model, observer PTQ)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import onnx

from npuready.sensitivity.data import CalibrationSplit, split_inputs


@dataclass(frozen=True)
class Built:
    name: str
    float_model: onnx.ModelProto  # constants folded (``quant.prepare``), as the quantiser saw it
    qdq: onnx.ModelProto
    split: CalibrationSplit


def build_qdq(g, args, spec) -> Built:
    """``g``: the float model, loaded with the command line's shape pins."""
    import numpy as np

    from npuready.quant.prepare import fold_constants
    from npuready.quant.ptq import quantize_model
    from npuready.quant.quantised_input import refuse_quantised

    refuse_quantised(g, args.model)
    shape = tuple(d if isinstance(d, int) else 1 for d in (g.inputs[0].shape or ()))
    split = split_inputs(args.calibration, args.images, args.holdout, shape, spec)
    fm = fold_constants(g.model)
    qdq = quantize_model(fm, [np.ascontiguousarray(split.calibration[i:i + 1]) for i in range(len(split.calibration))],
                         args.method, per_channel=not args.per_tensor)
    return Built(Path(args.model).name, fm, qdq, split)
