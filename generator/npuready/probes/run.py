"""Run probes on onnxruntime (session creation + one run on random input) and collect the table."""
from __future__ import annotations

import re
import sys
from typing import Any, Iterable

import numpy as np
import onnx
import onnxruntime as ort

from npuready.probes.catalog import PROBES
from npuready.probes.probe import BASIS, Probe, ProbeResult

_RNG_SEED = 0


def _feed(session: ort.InferenceSession) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(_RNG_SEED)
    feed = {}
    for i in session.get_inputs():
        shape = [d if isinstance(d, int) else 1 for d in i.shape]
        if "float" in i.type:
            feed[i.name] = rng.standard_normal(shape).astype(np.float32)
        elif "int64" in i.type:
            feed[i.name] = rng.integers(0, 4, shape).astype(np.int64)
        elif "bool" in i.type:
            feed[i.name] = rng.random(shape) > 0.5
        else:
            raise TypeError(f"probe input type {i.type} not handled")
    return feed


def _clean(exc: BaseException) -> str:
    """First meaningful line of an onnxruntime error, without source paths (stable across machines)."""
    text = " ".join(str(exc).split())
    text = re.sub(r"\[ONNXRuntimeError\] : \d+ : \w+ : ", "", text)
    text = re.sub(r"(/[^\s:]+)+\.(cc|h|cpp):\d+ ", "", text)
    return text[:200]


def _opset(model: onnx.ModelProto) -> int:
    return next((int(o.version) for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)


def run_probe(probe: Probe) -> ProbeResult:
    model = probe.build()
    in_shapes = tuple(tuple(d.dim_value for d in vi.type.tensor_type.shape.dim) for vi in model.graph.input)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 4
    common = dict(name=probe.name, group=probe.group, op_types=probe.op_types, description=probe.description,
                  opset=_opset(model), input_shapes=in_shapes)
    try:
        session = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:
        return ProbeResult(accepted=False, stage="session", error=_clean(exc), output_shapes=(), **common)
    try:
        outputs = session.run(None, _feed(session))
    except Exception as exc:
        return ProbeResult(accepted=False, stage="run", error=_clean(exc), output_shapes=(), **common)
    shapes = tuple(tuple(int(d) for d in np.asarray(o).shape) for o in outputs)
    return ProbeResult(accepted=True, stage="ok", error="", output_shapes=shapes, **common)


def run_all(probes: Iterable[Probe] | None = None, progress: bool = False) -> list[ProbeResult]:
    items = list(probes if probes is not None else PROBES.values())
    if progress and sys.stderr.isatty():
        from rich.progress import track

        items_iter = track(items, description="probes", console=None, transient=True)
    else:
        items_iter = items
    return [run_probe(p) for p in items_iter]


def table(results: Iterable[ProbeResult]) -> dict[str, Any]:
    """The JSON document written by ``npuready probes --out``."""
    rows = [r.to_dict() for r in results]
    return {
        "basis": BASIS,
        "evidence": "measured",
        "runtime": {"onnxruntime": ort.__version__, "onnx": onnx.__version__, "provider": "CPUExecutionProvider"},
        "summary": {"probes": len(rows), "accepted": sum(r["accepted"] for r in rows),
                    "failed": sum(not r["accepted"] for r in rows)},
        "probes": rows,
    }
