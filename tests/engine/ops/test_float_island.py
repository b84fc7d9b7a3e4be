"""``engine.ops.float_island``: a kept-float island whose float model holds a batch-1 Reshape runs per input."""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def _model() -> onnx.ModelProto:
    """x (1,2,4,4) → Conv c1 → Reshape to the static (1, 32) → Gemm fc → y (1, 3): a YOLO head's shape."""
    rng = np.random.default_rng(3)
    inits = [numpy_helper.from_array(rng.normal(size=(2, 2, 1, 1)).astype(np.float32), "w1"),
             numpy_helper.from_array(rng.normal(size=(2,)).astype(np.float32), "b1"),
             numpy_helper.from_array(np.array([1, 32], np.int64), "shape"),
             numpy_helper.from_array(rng.normal(size=(32, 3)).astype(np.float32), "w2"),
             numpy_helper.from_array(rng.normal(size=(3,)).astype(np.float32), "b2")]
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c"], name="c1"),
             helper.make_node("Reshape", ["c", "shape"], ["r"], name="flat"),
             helper.make_node("Gemm", ["r", "w2", "b2"], ["y"], name="fc")]
    g = helper.make_graph(nodes, "island", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m


def test_an_island_with_a_batch_one_reshape_runs_each_input_on_its_own():
    from npuready.engine import numpy_engine
    from npuready.engine.export import export_integer_graph
    from npuready.quant.keep_float import keep_float, kept_float
    from npuready.quant.ptq import quantize_model
    from npuready.verify.runners import run_fake_quant

    fm = _model()
    x = np.random.default_rng(4).normal(size=(5, 2, 4, 4)).astype(np.float32)
    q = keep_float(quantize_model(fm, [x[i:i + 1] for i in range(5)]), fm, ["c1", "fc"])
    assert "flat" in kept_float(q)  # the Reshape joins the island: its batch-1 shape is inside the float model
    graph = export_integer_graph(q)
    assert [op.kind for op in graph.ops if op.kind == "Float"] == ["Float"]
    ours = numpy_engine.run(graph, x)  # five inputs at once: the island's Reshape to (1, 32) cannot take them
    dq = next(n for n in q.graph.node if n.op_type == "DequantizeLinear" and n.output[0] == "y")
    code = dq.input[0]  # the int8 codes of fc's output
    _, ref = run_fake_quant(q, x, [code])
    assert ours[code].shape == (5, 3)
    assert np.abs(ours[code].astype(int) - ref[code].astype(int)).max() <= 1
