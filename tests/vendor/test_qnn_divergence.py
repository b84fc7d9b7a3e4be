"""Tensor-by-tensor HTP vs CPU on a QDQ model (npuready.vendor.qnn_divergence)."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from npuready.quant.ptq import quantize_model
from npuready.vendor.qnn_divergence import probes


def _qdq():
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.normal(0, 0.5, (8, 3, 3, 3)).astype(np.float32), "w")
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"], name="relu"),
             helper.make_node("GlobalAveragePool", ["r"], ["y"], name="pool")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 1, 1])], [w])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    x = [rng.normal(0, 1, (1, 3, 8, 8)).astype(np.float32) for _ in range(4)]
    return quantize_model(model, x), np.concatenate(x)


def test_probes_are_the_dequantised_activations_in_graph_order_with_their_scale():
    qdq, _ = _qdq()
    got = probes(qdq)
    # onnxruntime's quantiser folds the Relu into the Conv: the Conv writes the quantised "r"
    assert [(t, node, op) for t, node, op, _ in got] == [("x_DequantizeLinear_Output", "x", "input"),
                                                         ("r_DequantizeLinear_Output", "conv", "Conv"),
                                                         ("y", "pool", "GlobalAveragePool")]
    assert all(scale > 0 for *_, scale in got) and len({t for t, *_ in got}) == len(got)
    assert probes(qdq, limit=1) == got[:1]


def test_divergence_on_htp_names_no_gross_tensor_for_a_plain_cnn():
    from npuready.vendor import qnn_htp
    from npuready.vendor.qnn_divergence import divergence

    if not qnn_htp.available():
        pytest.skip("run `make qnn-env` for Qualcomm's HTP backend")
    qdq, x = _qdq()
    d = divergence(qdq, x)
    assert d["tensors_probed"] == len(probes(qdq)) and d["inputs"] == 4
    assert d["first_gross"] is None
