"""Quantisation-aware training (torch extra): fake-quant fine-tuning of a zoo model, then a QDQ ONNX model.

1. BatchNorm is folded into the convolutions (``torch.fx.experimental.optimization.fuse``, eval mode),
   so training sees the same weights the ONNX export and the QDQ writer see.
2. Every Conv2d/Linear is wrapped: its input passes an activation fake-quantiser (int8 asymmetric,
   per tensor, moving-average min/max observer — torch.ao's ``FakeQuantize``) and its weight a
   symmetric per-output-channel int8 fake-quantiser with ``scale = max|w| / 127`` recomputed each step
   (onnxruntime's weight scheme, so the rounding trained against is the rounding the QDQ model gets).
   The logits pass one more activation fake-quantiser. Gradients flow straight through (STE).
3. After ``steps`` optimiser steps (observers frozen after ``freeze_observers`` of them), the float
   weights are exported to ONNX and quantised with ``quant.ptq.quantize_model`` (activation ranges:
   min-max over the calibration set), i.e. the same QDQ layout as every other method.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from npuready.errors import InputError


@dataclass(frozen=True)
class QATResult:
    float_model: object          # onnx.ModelProto of the fine-tuned, BN-folded float model
    qdq_model: object            # onnx.ModelProto (QDQ) from quantize_model
    steps: int
    batch: int
    lr: float
    losses: tuple[float, ...]    # mean training loss per tenth of the run
    wrapped_layers: int


def fold_batchnorm(module):
    """An fx GraphModule of ``module`` (eval mode) with every Conv→BatchNorm folded into the Conv."""
    from torch.fx.experimental.optimization import fuse

    return fuse(copy.deepcopy(module).eval())


def _wrappers():
    import torch
    from torch import nn
    from torch.ao.quantization import FakeQuantize, MovingAverageMinMaxObserver

    def act_fq():
        return FakeQuantize(observer=MovingAverageMinMaxObserver, quant_min=-128, quant_max=127,
                            dtype=torch.qint8, qscheme=torch.per_tensor_affine)

    def weight_fq(w):
        scale = (w.detach().abs().reshape(w.shape[0], -1).amax(1) / 127.0).clamp_min(1e-12)
        zero = torch.zeros(w.shape[0], dtype=torch.int32)
        return torch.fake_quantize_per_channel_affine(w, scale, zero, 0, -127, 127)

    class QuantLayer(nn.Module):
        def __init__(self, layer: nn.Module):
            super().__init__()
            self.layer = layer
            self.act = act_fq()

        def forward(self, x):
            x = self.act(x)
            w = weight_fq(self.layer.weight)
            if isinstance(self.layer, nn.Conv2d):
                return self.layer._conv_forward(x, w, self.layer.bias)
            return nn.functional.linear(x, w, self.layer.bias)

    class QATNet(nn.Module):
        def __init__(self, net: nn.Module):
            super().__init__()
            self.net = net
            self.out = act_fq()

        def forward(self, x):
            return self.out(self.net(x))

    return QuantLayer, QATNet


def _replace(root, names, make) -> None:
    """Swap each submodule ``names[i]`` of ``root`` for ``make(submodule)``."""
    for name in names:
        parent_name, _, attr = name.rpartition(".")
        parent = root.get_submodule(parent_name) if parent_name else root
        setattr(parent, attr, make(getattr(parent, attr)))


def prepare(module):
    """(QAT network, number of wrapped layers): BN folded, Conv2d/Linear wrapped with fake-quantisers."""
    from torch import nn

    QuantLayer, QATNet = _wrappers()
    folded = fold_batchnorm(module)
    names = [n for n, m in folded.named_modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    _replace(folded, names, QuantLayer)
    return QATNet(folded), len(names)


def strip(qat_net):
    """The plain float network inside a QAT network (wrappers replaced by their trained layers)."""
    net = copy.deepcopy(qat_net.net)
    _replace(net, [n for n, m in net.named_modules() if type(m).__name__ == "QuantLayer"], lambda m: m.layer)
    return net.eval()


def train_qat(module, x: np.ndarray, y: np.ndarray, calibration, input_shape, steps: int = 300,
              batch: int = 64, lr: float = 1e-4, freeze_observers: float = 0.5, seed: int = 0,
              threads: int = 2, progress=None) -> QATResult:
    """Fine-tune ``module`` with fake quantisation on (x, y); return the float and QDQ ONNX models."""
    import torch

    from npuready.quant.ptq import quantize_model

    if steps < 1 or batch < 1:
        raise InputError(f"QAT steps {steps} / batch {batch}: both must be at least 1")
    if len(x) != len(y) or len(x) == 0:
        raise InputError(f"QAT data: {len(x)} inputs and {len(y)} labels; need the same non-zero count")
    torch.manual_seed(seed)
    previous = torch.get_num_threads()
    torch.set_num_threads(max(1, int(threads)))
    try:
        net, wrapped = prepare(module)
        xt, yt = torch.from_numpy(np.ascontiguousarray(x, np.float32)), torch.from_numpy(np.asarray(y, np.int64))
        opt = torch.optim.Adam(net.parameters(), lr=lr)
        loss_fn = torch.nn.CrossEntropyLoss()
        gen = torch.Generator().manual_seed(seed)
        net.train()
        losses, window = [], []
        tenth = max(1, steps // 10)
        for step in (progress(range(steps)) if progress else range(steps)):
            if step == int(freeze_observers * steps):
                net.apply(torch.ao.quantization.disable_observer)
            idx = torch.randint(0, len(xt), (batch,), generator=gen)
            loss = loss_fn(net(xt[idx]), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            window.append(float(loss.detach()))
            if len(window) == tenth:
                losses.append(round(float(np.mean(window)), 6))
                window = []
        float_onnx = export(strip(net), input_shape)
    finally:
        torch.set_num_threads(previous)
    qdq = quantize_model(float_onnx, calibration, "minmax")
    return QATResult(float_onnx, qdq, steps, batch, lr, tuple(losses), wrapped)


def export(module, input_shape):
    """ONNX (opset 17, static batch 1, input ``input``, output ``logits``) of a float torch module:
    the zoo's export recipe (``models.onnx_export.export_bytes``)."""
    import onnx

    from npuready.models.onnx_export import export_bytes

    return onnx.load_from_string(export_bytes(module, tuple(input_shape), ["logits"]))
