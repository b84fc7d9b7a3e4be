"""``thirdparty.tail``: a detector's last Concat removed so boxes and scores are quantised on their own scales."""
from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from npuready.errors import InputError
from npuready.thirdparty.tail import split_output_concat
from npuready.verify.tasks.detection import joined


def _detector() -> onnx.ModelProto:
    """conv → (box conv → Mul by the stride, cls conv → Sigmoid) → Concat: YOLOv8's tail in small."""
    rng = np.random.default_rng(0)
    w = lambda *s: rng.normal(size=s).astype(np.float32)  # noqa: E731
    inits = [numpy_helper.from_array(w(4, 3, 1, 1), "wb"), numpy_helper.from_array(w(4, 4, 1, 1), "wbox"),
             numpy_helper.from_array(w(2, 4, 1, 1), "wcls"), numpy_helper.from_array(np.float32(80.0), "stride"),
             numpy_helper.from_array(np.array([1, 4, 16], np.int64), "s4"),
             numpy_helper.from_array(np.array([1, 2, 16], np.int64), "s2")]
    nodes = [helper.make_node("Conv", ["x", "wb"], ["f"], name="backbone"),
             helper.make_node("Conv", ["f", "wbox"], ["b"], name="box"),
             helper.make_node("Reshape", ["b", "s4"], ["br"], name="box_flat"),
             helper.make_node("Mul", ["br", "stride"], ["bs"], name="scale"),
             helper.make_node("Conv", ["f", "wcls"], ["c"], name="cls"),
             helper.make_node("Reshape", ["c", "s2"], ["cr"], name="cls_flat"),
             helper.make_node("Sigmoid", ["cr"], ["cs"], name="score"),
             helper.make_node("Concat", ["bs", "cs"], ["y"], name="tail", axis=1)]
    g = helper.make_graph(nodes, "det", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 4, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 6, 16])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m


def _run(model, x):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})


def test_the_split_model_outputs_the_concats_inputs_and_joined_they_are_the_original_output():
    m = _detector()
    split = split_output_concat(m, "tail")
    assert [o.name for o in split.graph.output] == ["bs", "cs"]
    assert "tail" not in {n.name for n in split.graph.node} and "tail" in {n.name for n in m.graph.node}
    x = np.random.default_rng(1).normal(size=(1, 3, 4, 4)).astype(np.float32)
    (y,), parts = _run(m, x), _run(split, x)
    assert [p.shape for p in parts] == [(1, 4, 16), (1, 2, 16)]
    assert np.array_equal(joined(parts), y)


def test_the_split_branches_get_their_own_int8_scales():
    from npuready.quant.ptq import quantize_model

    m = split_output_concat(_detector(), "tail")
    x = np.random.default_rng(2).normal(size=(8, 1, 3, 4, 4)).astype(np.float32)
    q = quantize_model(m, list(x))
    inits = {i.name: numpy_helper.to_array(i) for i in q.graph.initializer}
    scale = {n.output[0]: float(inits[n.input[1]]) for n in q.graph.node if n.op_type == "DequantizeLinear"
             and n.output[0] in ("bs", "cs")}
    assert set(scale) == {"bs", "cs"}
    assert scale["cs"] <= 1 / 255 + 1e-9 < scale["bs"]  # scores 0..1 keep 1/255 steps, boxes take the wide scale


def test_a_tail_that_is_not_an_output_concat_is_refused_by_name():
    with pytest.raises(InputError, match="split tail 'nope': no Concat node of that name"):
        split_output_concat(_detector(), "nope")
    with pytest.raises(InputError, match="split tail 'box': no Concat node"):
        split_output_concat(_detector(), "box")


def test_joined_keeps_a_single_output_and_leaves_outputs_differing_in_two_axes_apart():
    a, b = np.zeros((1, 4, 16)), np.ones((1, 2, 8))
    assert joined([a]) is not None and joined([a]).shape == (1, 4, 16)
    assert joined([a, b]).shape == (1, 4, 16)  # not one head: the first output, as before
    assert joined([a, np.ones((1, 2, 16))]).shape == (1, 6, 16)
