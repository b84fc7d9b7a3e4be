"""Where the QDQ file as stored departs from the float model: per quantised activation, fake-quant vs float.

For every QuantizeLinear of the QDQ model whose float input also exists in the float model (or whose
DequantizeLinear feeds a graph output of the same name), the fake-quant codes are dequantised with the
scale and zero point stored beside them and compared with the float model's tensor:
``relative error = ||dequantised - float||₂ / ||float||₂`` over all images. Rounding to int8 keeps this
at a few per cent; a broken scale, zero point or weight makes it jump at the tensor it breaks, and every
tensor after it inherits the damage, so the FIRST tensor above ``GROSS_RELATIVE_ERROR`` is the one to
inspect. Measured on CPU (onnxruntime), not on NPU silicon.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import onnx
from onnx import numpy_helper

#: relative L2 error of a dequantised activation vs float above which the departure is gross (not rounding)
GROSS_RELATIVE_ERROR = 0.5


@dataclass(frozen=True)
class TensorDrift:
    tensor: str          # the int8 tensor (QuantizeLinear output) of the QDQ model
    float_name: str      # the float model tensor it quantises
    producer: str        # the node of the QDQ model that computes the float value
    weights: tuple[str, ...]  # constant (dequantised) inputs of that producer: weights, biases
    relative_error: float     # inf when the stored scale/zero point make the values non-finite

    @property
    def gross(self) -> bool:
        return not self.relative_error <= GROSS_RELATIVE_ERROR


def quantised_activations(qdq: onnx.ModelProto, float_model: onnx.ModelProto) -> list[tuple[onnx.NodeProto, str]]:
    """(QuantizeLinear node, float tensor name) for each activation both models have, in graph order."""
    known = {o for n in float_model.graph.node for o in n.output} | {i.name for i in float_model.graph.input}
    outputs = {o.name for o in qdq.graph.output}
    dq_out = {n.input[0]: n.output[0] for n in qdq.graph.node if n.op_type == "DequantizeLinear"}
    pairs = []
    for node in qdq.graph.node:
        if node.op_type != "QuantizeLinear":
            continue
        name = node.input[0]
        if name not in known and dq_out.get(node.output[0]) in outputs & known:
            name = dq_out[node.output[0]]
        if name in known:
            pairs.append((node, name))
    return pairs


def _constants(qdq: onnx.ModelProto) -> dict[str, np.ndarray]:
    return {i.name: numpy_helper.to_array(i) for i in qdq.graph.initializer}


def measure_drift(qdq: onnx.ModelProto, pairs, codes: dict[str, np.ndarray],
                  float_values: dict[str, np.ndarray]) -> tuple[TensorDrift, ...]:
    """``codes``: int8 codes of each QuantizeLinear output; ``float_values``: float model tensors, same images."""
    consts = _constants(qdq)
    producer = {o: n for n in qdq.graph.node for o in n.output}
    dq_const = {n.output[0] for n in qdq.graph.node if n.op_type == "DequantizeLinear" and n.input[0] in consts}
    rows = []
    for q, fname in pairs:
        scale = consts.get(q.input[1])
        zp = consts.get(q.input[2]) if len(q.input) > 2 and q.input[2] else np.zeros((), np.int8)
        c, f = codes.get(q.output[0]), float_values.get(fname)
        if scale is None or zp is None or c is None or f is None:
            continue
        with np.errstate(all="ignore"):
            deq = (c.astype(np.float64) - np.float64(zp.reshape(()))) * np.float64(scale.reshape(()))
            ref = f.astype(np.float64).reshape(deq.shape)
            err = float(np.linalg.norm(deq - ref) / max(float(np.linalg.norm(ref)), 1e-12))
        src = producer.get(q.input[0])
        weights = tuple(i for i in (src.input if src is not None else ()) if i in dq_const)
        rows.append(TensorDrift(q.output[0], fname, src.name if src is not None else "",
                                tuple(producer[w].input[0] for w in weights),
                                err if np.isfinite(err) else float("inf")))
    return tuple(rows)


def first_gross(drift) -> TensorDrift | None:
    return next((d for d in drift if d.gross), None)


def describe(d: TensorDrift) -> str:
    """One phrase naming the tensor (and what computes it) where fake-quant first departs from float."""
    via = f" (computed by {d.producer}" + (f" from {', '.join(d.weights)}" if d.weights else "") + ")"
    return (f"the QDQ model departs from float first at {d.tensor}{via if d.producer else ''}: relative error "
            f"{d.relative_error:.3g} > {GROSS_RELATIVE_ERROR} — inspect its weights, scale and zero point")
