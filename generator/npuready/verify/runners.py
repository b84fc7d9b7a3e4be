"""The two onnxruntime rungs of the ladder: the float model and the fake-quant (QDQ) model.

Fake-quant runs the QDQ graph with graph optimisations off, so onnxruntime computes
DequantizeLinear → float op → QuantizeLinear literally (no fused integer kernels); the int8 codes of
every QuantizeLinear output are returned, named as in the integer graph.
"""
from __future__ import annotations

import numpy as np
import onnx

from npuready.ort_session import literal_session


def run_float(model: onnx.ModelProto, x: np.ndarray, progress=lambda it, d: it, tensors=None):
    """First graph output for each image (images run one at a time: graphs are exported at batch 1).

    With ``tensors`` (names of intermediate tensors): (first output, {tensor: values stacked over images}).
    """
    if tensors is not None:
        return run_fake_quant(model, x, tensors, progress, "float")
    s = literal_session(model)
    name = s.get_inputs()[0].name
    return np.concatenate([s.run(None, {name: x[i:i + 1]})[0] for i in progress(range(len(x)), "float")])


def run_fake_quant(qdq: onnx.ModelProto, x: np.ndarray, tensors, progress=lambda it, d: it, desc="fake-quant"):
    """(first output float, {tensor: int8 codes stacked over images}) for the QDQ model."""
    tensors = list(dict.fromkeys(tensors))
    s = literal_session(qdq, tensors)
    name = s.get_inputs()[0].name
    out_name = s.get_outputs()[0].name
    fetch = [out_name, *(t for t in tensors if t != out_name)]
    values = {t: [] for t in fetch}
    for i in progress(range(len(x)), desc):
        for t, v in zip(fetch, s.run(fetch, {name: x[i:i + 1]})):
            values[t].append(v)
    stacked = {t: np.concatenate(v) for t, v in values.items()}
    return stacked[out_name], {t: stacked[t] for t in tensors}
