"""A layer a mixed-precision build keeps in float (``quant.keep_float``): dequantise, compute in float, quantise.

The QDQ model names its float nodes in its metadata. For each kept node whose output leaves the float island,
``build`` makes one op whose inputs are the int8 tensors the island reads and whose output is the int8 tensor
of the QuantizeLinear after that node (a Relu/Clip in between becomes the code clamp, as for integer ops).
Its params hold the node and the kept nodes it reads through float tensors as one float ONNX model (their
float weights inside) with the input scales/zero points and the output quantisation. ``run`` dequantises
the inputs, runs that model on onnxruntime's CPU provider (the float layer "on the CPU part" of a mixed
build) and quantises the result as QuantizeLinear does (round half to even, saturate). No fixed-point
arithmetic happens here: this op is float by design, and every result that contains one says so.
"""
from __future__ import annotations

import hashlib

import numpy as np
import onnx
from onnx import helper, numpy_helper

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntOp
from npuready.engine.ops.descriptor import OpDescriptor
from npuready.errors import InputError

KIND = "Float"
# no ONNX op type of its own: engine.export builds it for the layers a mixed build keeps in float
DESCRIPTOR = OpDescriptor((), (KIND,))
_SESSIONS: dict[str, object] = {}


# ----- params -------------------------------------------------------------------------------
def is_output(b, node, kept) -> bool:
    """A kept node whose output leaves the float island (towards a QuantizeLinear): one op ends there."""
    users = b.graph.consumers.get(node.outputs[0], ())
    return not users or any(u.name not in kept for u in users)


def build(b, node, kept) -> IntOp:
    """The op computing ``node``'s output from the island's int8 inputs: ``node`` and the kept nodes it reads
    through float tensors, as one float ONNX model."""
    members, seen, pending = [], set(), [node]
    ints, scales, zps, graph_inputs, inits, fed = [], [], [], [], [], set()
    while pending:
        n = pending.pop()
        if n.name in seen:
            continue
        seen.add(n.name)
        members.append(n)
        for name in n.inputs:
            if not name or name in fed:
                continue
            producer = b.graph.producers.get(name)
            if name in b.act_dq:
                t = b.tensors[b.act_dq[name]]
                ints.append(t.name)
                scales.append(t.scale)
                zps.append(t.zero_point)
                shape = list(b.graph.info(name).shape or ())
                graph_inputs.append(helper.make_tensor_value_info(
                    name, onnx.TensorProto.FLOAT, ["N", *shape[1:]] if shape else None))
            elif name in b.const_dq:
                inits.append(numpy_helper.from_array(_dequantised(b.const_dq[name]), name))
            elif (v := b.graph.constant(name)) is not None:
                inits.append(numpy_helper.from_array(np.asarray(v), name))
            elif producer is not None and producer.name in kept:
                pending.append(producer)
                continue
            else:
                raise InputError(f"node {n.name} ({n.op_type}, kept float): input {name} is neither a dequantised "
                                 "int8 activation, a constant nor the output of a kept-float node; a float layer "
                                 "must sit between DequantizeLinear and QuantizeLinear")
            fed.add(name)
    members.sort(key=lambda n: n.index)
    out, lo, hi = b.output(node)
    protos = [n.proto if n.proto is not None else helper.make_node(n.op_type, list(n.inputs), list(n.outputs),
                                                                   name=n.name) for n in members]
    y = helper.make_tensor_value_info(node.outputs[0], onnx.TensorProto.FLOAT, None)
    g = helper.make_graph(protos, f"{node.name}_float", graph_inputs, [y], inits)
    opsets = [helper.make_opsetid(d, v) for d, v in b.graph.opsets.items()]
    model = helper.make_model(g, opset_imports=opsets)
    model.ir_version = b.graph.model.ir_version
    data = np.frombuffer(model.SerializeToString(), dtype=np.uint8).copy()
    return IntOp(node.name, KIND, tuple(ints), (out.name,),
                 {"model": data, "input_scales": np.asarray(scales, np.float32),
                  "input_zero_points": np.asarray(zps, np.int32), "output_scale": out.scale,
                  "output_zero_point": out.zero_point, "act_min": lo, "act_max": hi,
                  "float_nodes": len(members)}, b.rounding)


def _dequantised(c) -> np.ndarray:
    shape = [1] * c.values.ndim
    if c.scale.size > 1:
        shape[c.axis] = c.scale.size
    return ((c.values - c.zero_point.reshape(shape if c.zero_point.size > 1 else ())).astype(np.float32)
            * c.scale.reshape(shape if c.scale.size > 1 else ())).astype(np.float32)


# ----- loop + epilogue ------------------------------------------------------------------------
def _session(data: np.ndarray):
    key = hashlib.sha1(data.tobytes()).hexdigest()
    if key not in _SESSIONS:
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        so.intra_op_num_threads = 1
        so.log_severity_level = 3
        _SESSIONS[key] = ort.InferenceSession(data.tobytes(), so, providers=["CPUExecutionProvider"])
    return _SESSIONS[key]


def release_sessions() -> None:
    """Drop the onnxruntime sessions kept per island model (a search builds hundreds of islands, each session
    holding its buffers)."""
    _SESSIONS.clear()


def run(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    p = op.params
    s = _session(p["model"])
    feed = {}
    for meta, x, scale, zp in zip(s.get_inputs(), inputs, p["input_scales"], p["input_zero_points"]):
        feed[meta.name] = ((x.astype(np.float32) - np.float32(zp)) * np.float32(scale)).astype(np.float32)
    n = {v.shape[0] if v.ndim else 0 for v in feed.values()}
    if len(n) == 1 and (k := n.pop()) > 1:
        # the island's float model keeps the export's batch-1 shapes (a Reshape to (1, ...), YOLO's decode):
        # several inputs at once go through it one by one, as onnxruntime runs the float model itself
        y = np.concatenate([s.run(None, {name: v[i:i + 1] for name, v in feed.items()})[0] for i in range(k)])
    else:
        y = s.run(None, feed)[0]
    return fixedpoint.quantize_float(y, p["output_scale"], int(p["output_zero_point"]), int(p["act_min"]),
                                     int(p["act_max"]), mode="half_even")
