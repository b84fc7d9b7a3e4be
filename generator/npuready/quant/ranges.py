"""Activation ranges of a float ONNX model over a calibration set, per observer.

Runs the model in onnxruntime with every float intermediate tensor exposed: a first pass records
min/max, a second (only when the observer needs it) fills a histogram per tensor over that range.
"""
from __future__ import annotations

import numpy as np
import onnx

from npuready.errors import InputError
from npuready.ort_session import literal_session
from npuready.graph import load as load_graph
from npuready.quant.observers import OBSERVERS
from npuready.quant.observers.histogram import Histogram


def float_tensors(model: onnx.ModelProto) -> list[str]:
    """Graph input and every float node output (the tensors a QDQ quantiser may quantise)."""
    g = load_graph(model)
    names = [i.name for i in g.inputs if (i.dtype or "").startswith("float")]
    for n in g.nodes:
        for o in n.outputs:
            if o and (g.info(o).dtype or "").startswith("float") and not g.is_constant(o):
                names.append(o)
    return list(dict.fromkeys(names))


def activation_ranges(model: onnx.ModelProto, batches, method: str) -> dict[str, tuple[float, float]]:
    """{tensor: (lo, hi)} chosen by observer ``method`` over ``batches`` (list of model-input arrays)."""
    if method not in OBSERVERS:
        raise InputError(f"method {method!r}: unknown; use one of {sorted(OBSERVERS)}")
    if not batches:
        raise InputError("calibration set: empty; give at least one input")
    obs = OBSERVERS[method]
    names = float_tensors(model)
    sess = literal_session(model, names)
    feed = sess.get_inputs()[0].name
    lo = {n: np.inf for n in names}
    hi = {n: -np.inf for n in names}
    for x in batches:
        for n, v in zip(names, sess.run(names, {feed: x})):
            lo[n] = min(lo[n], float(np.min(v)))
            hi[n] = max(hi[n], float(np.max(v)))
    hists = None
    if obs.NEEDS_HISTOGRAM:
        hists = {n: Histogram(lo[n], hi[n]) for n in names}
        for x in batches:
            for n, v in zip(names, sess.run(names, {feed: x})):
                hists[n].update(v)
    return {n: obs.observe(lo[n], hi[n], hists[n] if hists else None) for n in names}
