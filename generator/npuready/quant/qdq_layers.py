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
from onnx import numpy_helper

from npuready.graph import load as load_graph
from npuready.ort_session import literal_session

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


def initializer(model: onnx.ModelProto, name: str) -> np.ndarray:
    """The value of initializer ``name`` (KeyError when the model has none of that name)."""
    for t in model.graph.initializer:
        if t.name == name:
            return numpy_helper.to_array(t)
    raise KeyError(name)


def set_initializer(model: onnx.ModelProto, name: str, value: np.ndarray) -> None:
    """Replace the value of initializer ``name`` in place (KeyError when the model has none of that name)."""
    for t in model.graph.initializer:
        if t.name == name:
            t.CopyFrom(numpy_helper.from_array(value, name))
            return
    raise KeyError(name)


def _dynamic_batch(model: onnx.ModelProto) -> onnx.ModelProto:
    m = onnx.ModelProto()
    m.CopyFrom(model)
    del m.graph.value_info[:]
    for vi in list(m.graph.input) + list(m.graph.output):
        if vi.type.tensor_type.shape.dim:
            vi.type.tensor_type.shape.dim[0].dim_param = "N"
    return m


def session(model: onnx.ModelProto, names=(), dynamic_batch: bool = False):
    """onnxruntime session (optimisations off, one thread) exposing ``names`` as extra outputs.

    ``dynamic_batch`` renames the first dimension of the graph inputs/outputs to ``N`` (the zoo graphs
    are exported at batch 1) so several images can run in one call.
    """
    return literal_session(_dynamic_batch(model) if dynamic_batch else model, names, quiet=True)


def run_batched(model: onnx.ModelProto, names, batches, chunk: int = 64):
    """Yield ``[value per name]`` over the calibration set, ``chunk`` images per call when the graph
    runs at a dynamic batch (checked against one image), else one input at a time."""
    names = list(names)
    batches = list(batches)
    try:
        s = session(model, names, dynamic_batch=True)
        feed = s.get_inputs()[0].name
        x = np.concatenate(batches)
        if len(batches) > 1:
            one = session(model, names)
            want = one.run(names, {feed: batches[0]})
            got = s.run(names, {feed: x[:2]})
            if any(g.shape[1:] != w.shape[1:] or not np.allclose(g[:1], w, atol=1e-5) for g, w in zip(got, want)):
                raise ValueError("batched run differs from batch 1")
        chunks = [x[i:i + chunk] for i in range(0, len(x), chunk)]
    except Exception:  # a graph with a hard-coded batch of 1 (e.g. Reshape constants)
        s = session(model, names)
        feed = s.get_inputs()[0].name
        chunks = batches
    for c in chunks:
        yield s.run(names, {feed: c})


def collect(model: onnx.ModelProto, names, batches) -> dict[str, np.ndarray]:
    """{tensor: values stacked over the batches (axis 0)} for ``names``."""
    names = list(dict.fromkeys(names))
    got: dict[str, list[np.ndarray]] = {n: [] for n in names}
    for values in run_batched(model, names, batches):
        for n, v in zip(names, values):
            got[n].append(v)
    return {n: np.concatenate(v) for n, v in got.items()}


def channel_means(model: onnx.ModelProto, names, batches) -> dict[str, np.ndarray]:
    """{tensor: mean over every axis but 1 (channels)} over the calibration set, float64."""
    names = list(dict.fromkeys(names))
    sums: dict[str, np.ndarray] = {}
    count: dict[str, int] = {}
    for values in run_batched(model, names, batches):
        for n, v in zip(names, values):
            v = np.asarray(v, np.float64)
            axes = tuple(a for a in range(v.ndim) if a != 1)
            sums[n] = sums.get(n, 0.0) + v.sum(axis=axes)
            count[n] = count.get(n, 0) + int(v.size // v.shape[1])
    return {n: sums[n] / count[n] for n in names}
