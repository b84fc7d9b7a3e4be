"""The QDQ model ``quantize`` writes is checked with ``onnx.checker`` first: an invalid model is an error
naming the problem (e.g. ``Unrecognized attribute: axis for operator DequantizeLinear`` at opset < 13),
never a silent file."""
from __future__ import annotations

import onnx

from npuready.errors import InputError


def check_qdq(model: onnx.ModelProto, label: str) -> None:
    try:
        onnx.checker.check_model(model, full_check=False)
    except (onnx.checker.ValidationError, ValueError) as exc:
        first = " ".join(str(exc).split()).split(" ==> ")[0][:240]
        raise InputError(f"{label}: the quantised model is not valid ONNX ({first}); nothing written") from None
