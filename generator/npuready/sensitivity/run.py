"""Run a model on onnxruntime (literally, ``ort_session.literal_session``) and stack all its outputs over images."""
from __future__ import annotations

import numpy as np
import onnx

from npuready.ort_session import literal_session


def outputs(model: onnx.ModelProto, x: np.ndarray) -> tuple[np.ndarray, ...]:
    """Every graph output of ``model`` for each image of ``x`` (one session, images one at a time)."""
    s = literal_session(model, quiet=True)
    name = s.get_inputs()[0].name
    runs = [s.run(None, {name: x[i:i + 1]}) for i in range(len(x))]
    return tuple(np.concatenate([r[k] for r in runs]) for k in range(len(runs[0]))) if runs else ()


def sqnr_db(float_model: onnx.ModelProto, qdq: onnx.ModelProto, pairs: dict[str, str], x: np.ndarray) -> dict:
    """SQNR (dB) per float tensor: ``pairs`` maps a float-model tensor to the QDQ tensor holding its fake-quant
    value; signal and noise energies are summed over all images (``inf`` when identical)."""
    names = [f for f in pairs]
    fs = literal_session(float_model, names, quiet=True)
    qs = literal_session(qdq, [pairs[f] for f in names], quiet=True)
    fin, qin = fs.get_inputs()[0].name, qs.get_inputs()[0].name
    signal = dict.fromkeys(names, 0.0)
    noise = dict.fromkeys(names, 0.0)
    for i in range(len(x)):
        fv = fs.run(names, {fin: x[i:i + 1]})
        qv = qs.run([pairs[f] for f in names], {qin: x[i:i + 1]})
        for f, a, b in zip(names, fv, qv):
            a64 = a.astype(np.float64)
            signal[f] += float(np.sum(a64 * a64))
            noise[f] += float(np.sum((a64 - b.astype(np.float64).reshape(a.shape)) ** 2))
    return {f: (float("inf") if noise[f] == 0 else 10.0 * np.log10(max(signal[f], 1e-30) / noise[f]))
            for f in names}
