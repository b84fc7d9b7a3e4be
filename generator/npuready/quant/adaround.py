"""AdaRound (Nagel et al. 2020, "Up or Down? Adaptive Rounding for Post-Training Quantization").

Layer by layer (topological order), each int8 weight chooses floor or ceil of ``w / s`` instead of the
nearest integer. The choice is relaxed to ``floor(w/s) + h(V)`` with the rectified sigmoid
``h(V) = clip(sigmoid(V) * (zeta - gamma) + gamma, 0, 1)`` and ``V`` is learned with Adam to minimise the
layer's output reconstruction error on calibration data, plus the regulariser
``lambda * sum(1 - |2h(V) - 1|^beta)`` whose ``beta`` is annealed from 20 to 2 after a warm-up (it pushes
``h`` to 0 or 1). The layer input is the *quantised* model's activation (earlier layers already rounded,
the paper's asymmetric reconstruction); the target is the float model's output of the same layer, after
its ReLU/Clip when that is the layer's only consumer.

Scales and zero points are onnxruntime's (from the QDQ model); the chosen integers are written into the
QDQ model's int8 weight initializers. The element holding each channel's largest |w| keeps its nearest
integer (±127), so ``to_float_model`` can also store ``w = s * int`` in the float model and any symmetric
per-channel max-abs quantiser (onnxruntime's) reproduces exactly these integers. torch is imported lazily
(the ``torch`` extra).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import onnx
from onnx import numpy_helper

from npuready.errors import InputError
from npuready.quant.qdq_layers import QLayer, collect, initializer, qdq_layers, set_initializer

ZETA, GAMMA = 1.1, -0.1


@dataclass(frozen=True)
class LayerRounding:
    node: str
    weights: int
    mse_nearest: float      # reconstruction error with onnxruntime's round-to-nearest integers
    mse_adaround: float     # with the learned rounding (hard 0/1 after training)
    flipped: int            # integers that differ from round-to-nearest
    kept: str               # "adaround" | "nearest" (when learning did not lower the error)


@dataclass(frozen=True)
class AdaRoundResult:
    model: onnx.ModelProto
    layers: tuple[LayerRounding, ...]
    skipped: tuple[str, ...]
    samples: int
    iterations: int


def _supported(q: QLayer, w: np.ndarray) -> str:
    a = q.attrs
    if q.op_type == "Conv":
        if w.ndim != 4 or a.get("auto_pad", "NOTSET") not in ("NOTSET", b"NOTSET"):
            return "only 2-D Conv with explicit pads"
        p = list(a.get("pads", [0, 0, 0, 0]))
        if p[0] != p[2] or p[1] != p[3]:
            return "asymmetric pads"
    elif a.get("transA", 0) or a.get("alpha", 1.0) != 1.0 or a.get("beta", 1.0) != 1.0:
        return "Gemm with transA/alpha/beta"
    return ""


def _forward(q: QLayer):
    import torch.nn.functional as F

    a = q.attrs
    if q.op_type == "Conv":
        pads = list(a.get("pads", [0, 0, 0, 0]))
        kw = dict(stride=tuple(a.get("strides", [1, 1])), padding=(pads[0], pads[1]),
                  dilation=tuple(a.get("dilations", [1, 1])), groups=int(a.get("group", 1)))
        return lambda x, w, b: F.conv2d(x, w, b, **kw)
    trans_b = int(a.get("transB", 0))
    return lambda x, w, b: F.linear(x.flatten(1), w if trans_b else w.t(), b)


def _activation(q: QLayer):
    import torch

    if q.activation == "Relu":
        return torch.relu
    if q.activation == "Clip" and q.clip is not None:
        lo, hi = q.clip
        return lambda y: torch.clamp(y, min=None if np.isinf(lo) else lo, max=None if np.isinf(hi) else hi)
    return lambda y: y


def _mse(fwd, act, x, w, b, y, chunk: int = 64) -> float:
    import torch

    total, n = 0.0, 0
    with torch.no_grad():
        for i in range(0, len(x), chunk):
            d = act(fwd(x[i:i + chunk], w, b)) - y[i:i + chunk]
            total += float((d * d).sum(1).sum())
            n += d.shape[0] * (d[0, 0].numel())
    return total / max(n, 1)


def _round_layer(q: QLayer, w: np.ndarray, nearest: np.ndarray, b: np.ndarray | None, x: np.ndarray,
                 y: np.ndarray, iterations: int, batch: int, reg_weight: float, beta: tuple[float, float],
                 warmup: float, lr: float, seed: int) -> tuple[np.ndarray, LayerRounding]:
    import torch

    shape = [1] * w.ndim
    shape[q.weight_axis] = -1
    s = torch.tensor(np.broadcast_to(q.weight_scale.reshape(shape), w.shape).copy(), dtype=torch.float32)
    wt = torch.tensor(w, dtype=torch.float32)
    qmin = -127 if int(nearest.min()) >= -127 else -128
    floor = torch.floor(wt / s)
    rest = (wt / s - floor).clamp(0.0, 1.0 - 1e-6)
    v = (-torch.log((ZETA - GAMMA) / (rest - GAMMA) - 1.0)).clone().requires_grad_(True)
    fwd, act = _forward(q), _activation(q)
    xt, yt = torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)
    bt = torch.tensor(b, dtype=torch.float32) if b is not None else None
    opt = torch.optim.Adam([v], lr=lr)
    gen = torch.Generator().manual_seed(seed)
    start = int(warmup * iterations)

    def h(v):
        return torch.clamp(torch.sigmoid(v) * (ZETA - GAMMA) + GAMMA, 0.0, 1.0)

    for it in range(iterations):
        idx = torch.randint(0, len(xt), (min(batch, len(xt)),), generator=gen)
        wq = s * torch.clamp(floor + h(v), qmin, 127)
        d = act(fwd(xt[idx], wq, bt)) - yt[idx]
        loss = (d * d).sum(1).mean()
        if it >= start:
            bt_ = beta[0] + (beta[1] - beta[0]) * (it - start) / max(iterations - start - 1, 1)
            loss = loss + reg_weight * (1.0 - (2.0 * h(v) - 1.0).abs().pow(bt_)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        learned = torch.clamp(floor + (v >= 0).float(), qmin, 127).numpy().astype(np.int64)
    # keep each channel's largest-|w| element at its nearest integer: the scale stays recoverable
    flat_w = np.moveaxis(np.abs(w), q.weight_axis, 0).reshape(w.shape[q.weight_axis], -1)
    keep = np.zeros_like(flat_w, dtype=bool)
    keep[np.arange(len(flat_w)), flat_w.argmax(1)] = True
    keep = np.moveaxis(keep.reshape(np.moveaxis(w, q.weight_axis, 0).shape), 0, q.weight_axis)
    learned = np.where(keep, nearest, learned)
    err_near = _mse(fwd, act, xt, s * torch.tensor(nearest, dtype=torch.float32), bt, yt)
    err_ada = _mse(fwd, act, xt, s * torch.tensor(learned, dtype=torch.float32), bt, yt)
    kept = "adaround" if err_ada <= err_near else "nearest"
    chosen = learned if kept == "adaround" else nearest.astype(np.int64)
    return chosen.astype(np.int8), LayerRounding(q.node, int(w.size), err_near, err_ada,
                                                 int(np.sum(learned != nearest)), kept)


def adaround(float_model: onnx.ModelProto, qdq_model: onnx.ModelProto, calibration, iterations: int = 200,
             batch: int = 32, reg_weight: float = 0.01, beta: tuple[float, float] = (20.0, 2.0),
             warmup: float = 0.2, lr: float = 1e-2, seed: int = 0, threads: int = 1,
             progress=None) -> AdaRoundResult:
    """QDQ model → QDQ model whose int8 weights use learned rounding (scales unchanged).

    ``threads`` torch threads while learning (restored afterwards): small layers run fastest on one.
    """
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(max(1, int(threads)))
    try:
        return _adaround(float_model, qdq_model, calibration, iterations, batch, reg_weight, beta, warmup, lr,
                         seed, progress)
    finally:
        torch.set_num_threads(previous)


def _adaround(float_model, qdq_model, calibration, iterations, batch, reg_weight, beta, warmup, lr, seed,
              progress) -> AdaRoundResult:
    batches = [np.ascontiguousarray(b, np.float32) for b in calibration]
    if not batches:
        raise InputError("calibration set: empty; AdaRound needs at least one input")
    if iterations < 1:
        raise InputError(f"AdaRound iterations {iterations}: must be at least 1")
    model = onnx.ModelProto()
    model.CopyFrom(qdq_model)
    floats = {t.name: numpy_helper.to_array(t) for t in float_model.graph.initializer}
    done, skipped = [], []
    layers = qdq_layers(float_model, qdq_model)
    for q in (progress(layers) if progress else layers):
        w = floats.get(q.weight)
        reason = "weight not an initializer of the float model" if w is None else _supported(q, w)
        if reason:
            skipped.append(f"{q.node}: {reason}")
            continue
        nearest = initializer(model, q.weight_q)
        b = initializer(model, q.bias_q).astype(np.float64) * q.bias_scale if q.bias_q else None
        x = collect(model, [q.input], batches)[q.input]
        y = collect(float_model, [q.float_output], batches)[q.float_output]
        if q.activation == "Relu":
            y = np.maximum(y, 0)
        elif q.activation == "Clip" and q.clip is not None:
            y = np.clip(y, *q.clip)
        ints, rec = _round_layer(q, w.astype(np.float32), nearest, b, x, y, iterations, batch, reg_weight,
                                 beta, warmup, lr, seed)
        set_initializer(model, q.weight_q, ints)
        done.append(rec)
    return AdaRoundResult(model, tuple(done), tuple(skipped), len(batches), iterations)


def to_float_model(float_model: onnx.ModelProto, qdq_model: onnx.ModelProto) -> onnx.ModelProto:
    """The float model with every matched weight replaced by ``scale * int`` from ``qdq_model``."""
    out = onnx.ModelProto()
    out.CopyFrom(float_model)
    for q in qdq_layers(float_model, qdq_model):
        ints = initializer(qdq_model, q.weight_q).astype(np.float64)
        shape = [1] * ints.ndim
        shape[q.weight_axis] = -1
        set_initializer(out, q.weight, (ints * q.weight_scale.reshape(shape)).astype(np.float32))
    return out
