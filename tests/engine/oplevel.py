"""Op-level checks: one op (or a tiny chain) in a hand-built QDQ model with random scales and zero points,
run by the NumPy engine, the C++ twin and LiteRT's reference kernels (BUILTIN_REF) on random inputs.

``qdq_model(nodes, acts, ...)`` quantises the graph input ``x`` and every tensor named in ``acts``
(QuantizeLinear + DequantizeLinear, per-tensor int8, scale from the float range times a random factor,
random zero point); ``qconsts`` become int8 constants behind a DequantizeLinear (symmetric per tensor).
"""
from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from npuready.engine import cpp_engine, numpy_engine
from npuready.engine.export import export_integer_graph


def _float_model(nodes, inits, in_shape, outs, opset):
    g = h.make_graph(nodes, "op", [h.make_tensor_value_info("x", T.FLOAT, in_shape)],
                     [h.make_tensor_value_info(o, T.FLOAT, None) for o in outs], initializer=inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", opset)])


def qdq_model(nodes, acts, in_shape, seed: int = 0, inits=(), qconsts=None, opset: int = 17, images: int = 8,
              outputs=None):
    """(QDQ ModelProto, float inputs N×in_shape[1:]) for ``nodes`` reading the float input ``x``."""
    rng = np.random.default_rng(seed)
    qconsts = dict(qconsts or {})
    s_in, zp_in = float(rng.uniform(0.01, 0.08)), int(rng.integers(-30, 30))
    codes = rng.integers(-128, 128, size=(images, *in_shape[1:]))
    x = (s_in * (codes - zp_in)).astype(np.float32)
    float_inits = list(inits) + [nh.from_array(v.astype(np.float32), k) for k, v in qconsts.items()]
    sess = ort.InferenceSession(_float_model(nodes, float_inits, in_shape, acts, opset).SerializeToString(),
                                providers=["CPUExecutionProvider"])
    vals = [sess.run(None, {"x": x[i:i + 1]}) for i in range(images)]
    params = {"x": (s_in, zp_in)}
    for j, a in enumerate(acts):
        v = np.concatenate([r[j].reshape(-1) for r in vals])
        lo, hi = min(float(v.min()), 0.0), max(float(v.max()), 0.0)
        s = max(hi - lo, 1e-3) / 255 * float(rng.uniform(0.8, 1.3))
        params[a] = (s, int(np.clip(round(-128 - lo / s), -128, 127)))
    rename = {a: f"{a}_dq" for a in params}
    qnodes, qinits = [], list(inits)
    for a, (s, zp) in params.items():
        qinits += [nh.from_array(np.array(s, np.float32), f"{a}_s"), nh.from_array(np.array(zp, np.int8), f"{a}_z")]
        qnodes += [h.make_node("QuantizeLinear", [a, f"{a}_s", f"{a}_z"], [f"{a}_q"]),
                   h.make_node("DequantizeLinear", [f"{a}_q", f"{a}_s", f"{a}_z"], [f"{a}_dq"])]
    for k, v in qconsts.items():
        s = float(np.abs(v).max()) / 127 or 1.0
        qinits += [nh.from_array(np.clip(np.round(v / s), -127, 127).astype(np.int8), f"{k}_i8"),
                   nh.from_array(np.array(s, np.float32), f"{k}_s")]
        qnodes.append(h.make_node("DequantizeLinear", [f"{k}_i8", f"{k}_s"], [k]))
    body = []
    for n in nodes:
        m = onnx.NodeProto()
        m.CopyFrom(n)
        m.input[:] = [rename.get(i, i) for i in n.input]
        body.append(m)
    names = list(params)
    nodes_out = qnodes[:2] + qnodes[2 * len(params):]  # input Q/DQ and constant DQs first
    for n in body:  # each activation's Q/DQ right after its producer keeps the node list topological
        nodes_out.append(n)
        nodes_out += [q for o in n.output if o in params for q in qnodes[2 * names.index(o): 2 * names.index(o) + 2]]
    outs = outputs or [acts[-1]]
    g = h.make_graph(nodes_out, "op_qdq", [h.make_tensor_value_info("x", T.FLOAT, in_shape)],
                     [h.make_tensor_value_info(f"{o}_dq", T.FLOAT, None) for o in outs], initializer=qinits)
    model = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    return onnx.shape_inference.infer_shapes(model), x


def check(model, x):
    """Export, run NumPy and C++ engines and LiteRT BUILTIN_REF; returns (graph, {engine: report summary})."""
    from npuready.verify.litert_oracle import compare_with_litert

    graph = export_integer_graph(model)
    a, b = numpy_engine.run(graph, x), cpp_engine.run(graph, x)
    assert set(a) == set(b)
    for k in a:
        assert np.array_equal(a[k], b[k]), f"NumPy and C++ differ on {k}"
    out = {}
    for name, eng in (("numpy", numpy_engine), ("cpp", cpp_engine)):
        out[name] = compare_with_litert(model, x, graph, engine=eng, optimized=False).summary()
    return graph, out


def assert_bitexact(model, x, kinds):
    """The graph has exactly ``kinds`` (after the input Quantize) and every tensor equals LiteRT's."""
    graph, reports = check(model, x)
    assert [op.kind for op in graph.ops][1:] == kinds
    computed = [op for op in graph.ops if op.kind != "Constant"]
    for s in reports.values():
        assert s["tensors_compared"] == len(x) * len(computed)
        assert s["tensors_mismatched"] == 0
        assert s["elements_mismatched_propagated"] == 0 and s["elements_mismatched_local"] == 0
    return graph
