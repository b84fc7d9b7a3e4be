"""A QDQ model onnx.checker rejects is an InputError naming the problem (npuready.quant.qdq_check)."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from npuready.errors import InputError
from npuready.quant.qdq_check import check_qdq


def _dequant(opset: int):
    node = helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], name="dq", axis=0)
    inits = [numpy_helper.from_array(np.ones((2, 2), np.int8), "q"),
             numpy_helper.from_array(np.ones(2, np.float32), "s"),
             numpy_helper.from_array(np.zeros(2, np.int8), "z")]
    g = helper.make_graph([node], "g", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)


def test_per_channel_dequantize_at_opset_11_is_refused_naming_the_attribute():
    with pytest.raises(InputError, match="q.onnx: the quantised model is not valid ONNX .*axis.*nothing written"):
        check_qdq(_dequant(11), "q.onnx")


def test_per_channel_dequantize_at_opset_13_passes():
    check_qdq(_dequant(13), "q.onnx")
