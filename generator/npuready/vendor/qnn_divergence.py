"""Where a QDQ model's HTP run departs from onnxruntime's CPU provider: tensor by tensor, in graph order.

Every activation the QDQ model dequantises (the output of a DequantizeLinear fed by a QuantizeLinear) is
added as a graph output, the model is run on Qualcomm's HTP backend and on the CPU provider with the same
inputs (``qnn_htp.run``), and each tensor's largest absolute difference is read in units of its own
quantisation step and as a fraction of its range. Two tensors are named: the first beyond ``steps``
quantisation steps (where rounding alone no longer explains the difference) and the first *gross* one,
whose largest difference exceeds half its range (the values are wrong, not rounded). Measured with
Qualcomm's x86 simulator, not on a Snapdragon. Extra graph outputs can split HTP's partitions; the
placement of the probed run is returned with the tensors so a reader can see whether it changed.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import numpy_helper

STEPS = 2.0          # beyond this many quantisation steps a difference is more than rounding
GROSS = 0.5          # beyond this fraction of the tensor's range the values are wrong
MAX_TENSORS = 400    # probe at most this many tensors (the first in graph order)


@dataclass(frozen=True)
class TensorGap:
    tensor: str
    node: str        # the float op whose output this is (the producer of the QuantizeLinear's input)
    op_type: str
    max_abs_diff: float
    range: float
    steps: float     # max_abs_diff / the tensor's quantisation scale

    def to_dict(self) -> dict[str, Any]:
        return {"tensor": self.tensor, "node": self.node, "op_type": self.op_type,
                "max_abs_diff": round(self.max_abs_diff, 6), "range": round(self.range, 6),
                "steps": round(self.steps, 3)}


def probes(qdq: onnx.ModelProto, limit: int = MAX_TENSORS) -> list[tuple[str, str, str, float]]:
    """(DequantizeLinear output, float producer name, its op type, scale) of activations, in graph order."""
    inits = {i.name: i for i in qdq.graph.initializer}
    producer = {o: n for n in qdq.graph.node for o in n.output}
    out = []
    for n in qdq.graph.node:
        if n.op_type != "DequantizeLinear" or n.input[0] in inits:
            continue
        q = producer.get(n.input[0])
        if q is None or q.op_type != "QuantizeLinear" or len(n.input) < 2 or n.input[1] not in inits:
            continue
        src = producer.get(q.input[0])
        scale = float(np.max(numpy_helper.to_array(inits[n.input[1]])))
        out.append((n.output[0], src.name if src is not None else q.input[0],
                    src.op_type if src is not None else "input", scale))
        if len(out) >= limit:
            break
    return out


def divergence(qdq: onnx.ModelProto, x: np.ndarray, limit: int = MAX_TENSORS) -> dict[str, Any]:
    """Per probed tensor, HTP vs CPU; the first tensor beyond ``STEPS`` steps and the first gross one."""
    from npuready.vendor import qnn_htp

    picked = probes(qdq, limit)
    model = onnx.ModelProto()
    model.CopyFrom(qdq)
    have = {o.name for o in model.graph.output}
    extra = [t for t, *_ in picked if t not in have]
    for t in extra:
        model.graph.output.append(onnx.ValueInfoProto(name=t))
    with tempfile.TemporaryDirectory(prefix="npuready-qnn-probe-") as tmp:
        path = Path(tmp) / "probed.onnx"
        path.write_bytes(model.SerializeToString())
        run = qnn_htp.run(path, x)
    index = {o.name: i for i, o in enumerate(model.graph.output)}
    gaps = []
    for tensor, node, op, scale in picked:
        a, b = run.htp[index[tensor]], run.cpu[index[tensor]]
        diff = float(np.max(np.abs(a.astype(np.float64) - b), initial=0.0))
        span = float(np.max(np.abs(b), initial=0.0))
        gaps.append(TensorGap(tensor, node, op, diff, span, diff / scale if scale > 0 else float("inf")))
    first = next((g for g in gaps if g.steps > STEPS + 1e-3), None)  # 1e-3: float noise in diff / scale
    gross = next((g for g in gaps if g.range > 0 and g.max_abs_diff > GROSS * g.range), None)
    return {"evidence": "measured (Qualcomm's HTP simulator for x86 vs onnxruntime's CPU provider)",
            "inputs": int(len(x)), "tensors_probed": len(gaps), "placement": run.placement.to_dict(),
            "first_beyond_rounding": None if first is None else first.to_dict(),
            "first_gross": None if gross is None else gross.to_dict(),
            "thresholds": {"steps": STEPS, "gross_fraction_of_range": GROSS}}
