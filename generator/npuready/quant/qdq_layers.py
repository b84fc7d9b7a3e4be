"""The weighted layers of a QDQ model matched to their float originals (for bias correction and AdaRound).

onnxruntime's QDQ writer stores a weight ``W`` as an int8 initializer ``W_quantized`` read through a
DequantizeLinear (per-channel ``axis`` and scale), and a bias ``B`` as int32 ``B_quantized`` with scale
``s_in * s_w``. A Conv/Gemm of the QDQ model is matched to the float node reading ``W``. The helper
``channel_means`` runs a model over a calibration set and returns per-channel means of chosen tensors.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx

from npuready.graph import load as load_graph

WEIGHTED = ("Conv", "Gemm")
SUFFIX = "_quantized"


@dataclass(frozen=True)
class QLayer:
    node: str                      # QDQ node name
    op_type: str                   # Conv | Gemm
    input: str                     # QDQ tensor the op reads (dequantised activation)
    output: str                    # QDQ op output (float, before the next QuantizeLinear)
    float_input: str               # the same tensors in the float model
    float_output: str
    weight: str                    # float weight initializer name
    weight_q: str                  # its int8 initializer in the QDQ model
    weight_scale: np.ndarray = field(repr=False)
    weight_axis: int = 0
    bias_q: str | None = None      # int32 bias initializer (None: no bias)
    bias_scale: np.ndarray | None = field(default=None, repr=False)
    attrs: dict[str, Any] = field(default_factory=dict, repr=False)
    activation: str = ""           # float op after the layer when it is its sole consumer: Relu | Clip | ""
    clip: tuple[float, float] | None = None


def _dq_source(g, name: str):
    p = g.producers.get(name)
    if p is None or p.op_type != "DequantizeLinear" or p.inputs[0] not in g.initializer_names:
        return None
    return p


def qdq_layers(float_model: onnx.ModelProto, qdq_model: onnx.ModelProto) -> list[QLayer]:
    """Weighted layers in the QDQ model's topological order (layers that do not match are left out)."""
    fg, qg = load_graph(float_model), load_graph(qdq_model)
    float_by_weight = {n.inputs[1]: n for n in fg.nodes if n.op_type in WEIGHTED and len(n.inputs) > 1}
    layers = []
    for n in qg.nodes:
        if n.op_type not in WEIGHTED or len(n.inputs) < 2:
            continue
        wdq = _dq_source(qg, n.inputs[1])
        if wdq is None or not wdq.inputs[0].endswith(SUFFIX):
            continue
        fnode = float_by_weight.get(wdq.inputs[0][: -len(SUFFIX)])
        if fnode is None or fnode.op_type != n.op_type:
            continue
        bias_q = bias_scale = None
        if len(n.inputs) > 2 and n.inputs[2]:
            bdq = _dq_source(qg, n.inputs[2])
            if bdq is not None:
                bias_q, bias_scale = bdq.inputs[0], np.asarray(qg.constant(bdq.inputs[1]), np.float64)
        act, clip = "", None
        users = fg.consumers.get(fnode.outputs[0], ())
        if len(users) == 1 and users[0].op_type in ("Relu", "Clip"):
            act = users[0].op_type
            if act == "Clip":
                lo = fg.constant(users[0].inputs[1]) if len(users[0].inputs) > 1 and users[0].inputs[1] else None
                hi = fg.constant(users[0].inputs[2]) if len(users[0].inputs) > 2 and users[0].inputs[2] else None
                clip = (float(lo) if lo is not None else -np.inf, float(hi) if hi is not None else np.inf)
        layers.append(QLayer(
            node=n.name, op_type=n.op_type, input=n.inputs[0], output=n.outputs[0],
            float_input=fnode.inputs[0], float_output=fnode.outputs[0], weight=wdq.inputs[0][: -len(SUFFIX)],
            weight_q=wdq.inputs[0], weight_scale=np.asarray(qg.constant(wdq.inputs[1]), np.float64),
            weight_axis=int(wdq.attr("axis", 1)) if np.asarray(qg.constant(wdq.inputs[1])).size > 1 else 0,
            bias_q=bias_q, bias_scale=bias_scale, attrs=dict(n.attrs), activation=act, clip=clip))
    return layers


def session(model: onnx.ModelProto, names=()):
    """onnxruntime session (optimisations off, one thread) exposing ``names`` as extra outputs."""
    import onnxruntime as ort

    m = onnx.ModelProto()
    m.CopyFrom(model)
    have = {o.name for o in m.graph.output}
    for name in names:
        if name not in have:
            m.graph.output.append(onnx.ValueInfoProto(name=name))
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.intra_op_num_threads = 1
    so.log_severity_level = 3
    return ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])


def collect(model: onnx.ModelProto, names, batches) -> dict[str, np.ndarray]:
    """{tensor: values stacked over the batches (axis 0)} for ``names``."""
    names = list(dict.fromkeys(names))
    s = session(model, names)
    feed = s.get_inputs()[0].name
    got: dict[str, list[np.ndarray]] = {n: [] for n in names}
    for x in batches:
        for n, v in zip(names, s.run(names, {feed: x})):
            got[n].append(v)
    return {n: np.concatenate(v) for n, v in got.items()}


def channel_means(model: onnx.ModelProto, names, batches) -> dict[str, np.ndarray]:
    """{tensor: mean over every axis but 1 (channels)} over the calibration set, float64."""
    names = list(dict.fromkeys(names))
    s = session(model, names)
    feed = s.get_inputs()[0].name
    sums: dict[str, np.ndarray] = {}
    count: dict[str, int] = {}
    for x in batches:
        for n, v in zip(names, s.run(names, {feed: x})):
            v = np.asarray(v, np.float64)
            axes = tuple(a for a in range(v.ndim) if a != 1)
            sums[n] = sums.get(n, 0.0) + v.sum(axis=axes)
            count[n] = count.get(n, 0) + int(v.size // v.shape[1])
    return {n: sums[n] / count[n] for n in names}
