import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper
from tflite_models import QDQ_MODELS

from tflite_helpers import random_inputs
from npuready.errors import InputError
from npuready.tflite.quant_table import strip_qdq


def test_strip_removes_qdq_and_keeps_integers(qdq):
    model = QDQ_MODELS["conv_relu"]()
    qmodel = qdq(model, random_inputs(model, 4))
    float_model, table = strip_qdq(qmodel)
    ops = {n.op_type for n in float_model.graph.node}
    assert "QuantizeLinear" not in ops and "DequantizeLinear" not in ops
    inits = {t.name: numpy_helper.to_array(t) for t in qmodel.graph.initializer}
    assert table.act["input"].scale[0] == pytest.approx(float(inits["input_scale"]))
    weights = [c for c in table.const.values() if c.q.ndim == 4]
    assert len(weights) == 1 and weights[0].q.dtype == np.int8 and weights[0].qp.per_channel
    assert all(z == 0 for z in weights[0].qp.zero_point)
    out = model.graph.output[0].name
    assert table.aliases[out] in table.act  # the QDQ output name is an alias of the float tensor


def _q_dq(zp_dtype):
    zp = numpy_helper.from_array(np.array(10, zp_dtype), "zp")
    s = numpy_helper.from_array(np.array(0.5, np.float32), "s")
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["xq"]),
             helper.make_node("DequantizeLinear", ["xq", "s", "zp"], ["y"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])], [zp, s])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_uint8_activations_shift_exactly_to_int8():
    _, table = strip_qdq(_q_dq(np.uint8))
    assert table.act["x"].zero_point == (10 - 128,)


def test_int16_activations_are_refused():
    with pytest.raises(InputError, match="int16 activations"):
        strip_qdq(_q_dq(np.int16))
