"""QDQ versions of the zoo models for the integer experiments (float zoo ONNX + our PTQ)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx

from npuready.errors import InputError
from npuready.paths import zoo_dir


def zoo_path(name: str) -> Path:
    path = zoo_dir() / f"{name}.onnx"
    if not path.is_file():
        raise InputError(f"{path}: missing; train the zoo first ('npuready train')")
    return path


def quantize_zoo(name: str, method: str = "minmax", images: int = 256, seed: int = 0,
                 per_channel: bool = True) -> tuple[onnx.ModelProto, onnx.ModelProto]:
    """(float model, QDQ model) for zoo model ``name``, calibrated on ``images`` stratified train images."""
    from npuready.graph import load
    from npuready.quant.inputs import load_inputs
    from npuready.quant.ptq import quantize_model

    fm = load(zoo_path(name))
    shape = tuple(d if isinstance(d, int) else 1 for d in fm.inputs[0].shape)
    calib = load_inputs("fashion-mnist:train", images, shape, seed=seed).x
    q = quantize_model(fm.model, [np.ascontiguousarray(calib[i:i + 1]) for i in range(len(calib))], method,
                       per_channel=per_channel)
    return fm.model, q
