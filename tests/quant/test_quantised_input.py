"""An already-quantised model is refused by name (npuready.quant.quantised_input)."""
from __future__ import annotations

from npuready.quant.quantised_input import quantised_ops


def test_quantised_op_types_are_counted_qlinear_included():
    found = quantised_ops(["Conv", "QLinearConv", "QLinearAdd", "DynamicQuantizeLinear", "Relu", "ConvInteger"])
    assert dict(found) == {"QLinearConv": 1, "QLinearAdd": 1, "DynamicQuantizeLinear": 1, "ConvInteger": 1}


def test_a_float_model_has_none():
    assert not quantised_ops(["Conv", "Relu", "Gemm"])
