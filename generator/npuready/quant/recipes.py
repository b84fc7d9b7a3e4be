"""Named quantisation recipes compared side by side (explicit registry): float ONNX + calibration → QDQ.

Each recipe returns ``(qdq_model, details)``; ``details`` is a JSON-ready dict about what the recipe
did (CLE pairs, bias shifts, AdaRound per-layer errors). QAT needs a torch module and training data,
so it is run by the experiment itself (``quant.qat.train_qat``), not listed here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import onnx

from npuready.quant.ptq import baseline_model, quantize_model


@dataclass(frozen=True)
class Recipe:
    name: str
    weights: str                 # "per-channel" | "per-tensor"
    description: str
    build: Callable[..., tuple[onnx.ModelProto, dict[str, Any]]]


def _observer(method: str, per_channel: bool = True):
    def build(model, calib, **_):
        return quantize_model(model, calib, method, per_channel=per_channel), {}
    return build


def _baseline(model, calib, **_):
    return baseline_model(model, calib), {}


def _cle_details(res) -> dict[str, Any]:
    return {"sweeps": res.sweeps, "pairs_equalised": res.equalised, "pairs_skipped": len(res.pairs) - res.equalised,
            "pairs": [{"first": p.first, "second": p.second, "between": list(p.between), "equalised": p.equalised,
                       "reason": p.reason, "spread_before": p.spread_before, "spread_after": p.spread_after}
                      for p in res.pairs]}


def _cle(per_channel: bool, bias: bool = False):
    def build(model, calib, bias_images: int = 128, **_):
        from npuready.quant.cle import equalize

        res = equalize(model)
        q = quantize_model(res.model, calib, "minmax", per_channel=per_channel)
        details = {"cle": _cle_details(res)}
        if bias:
            q, details["bias_correction"] = _bias_fix(res.model, q, calib, bias_images)
        return q, details
    return build


def _bias_fix(model, q, calib, images: int = 128):
    from npuready.quant.bias_correction import correct_bias

    res = correct_bias(model, q, calib[:images])
    return res.model, {"layers_corrected": len(res.layers), "layers_without_bias": list(res.skipped),
                       "samples": res.samples,
                       "layers": [{"node": f.node, "channels": f.channels,
                                   "mean_abs_shift_before": round(f.mean_abs_shift_before, 8),
                                   "mean_abs_shift_after": round(f.mean_abs_shift_after, 8),
                                   "max_abs_change": round(f.max_abs_change, 8)} for f in res.layers]}


def _bias(per_channel: bool):
    def build(model, calib, bias_images: int = 128, **_):
        q = quantize_model(model, calib, "minmax", per_channel=per_channel)
        q, details = _bias_fix(model, q, calib, bias_images)
        return q, {"bias_correction": details}
    return build


def _adaround(model, calib, adaround_images: int = 128, adaround_iterations: int = 200, seed: int = 0,
              progress=None, **_):
    from npuready.quant.adaround import adaround

    q = quantize_model(model, calib, "minmax")
    res = adaround(model, q, calib[:adaround_images], iterations=adaround_iterations, seed=seed, progress=progress)
    return res.model, {"adaround": {
        "samples": res.samples, "iterations": res.iterations, "skipped": list(res.skipped),
        "layers_improved": sum(r.mse_adaround < r.mse_nearest for r in res.layers),
        "layers_kept_nearest": sum(r.kept == "nearest" for r in res.layers),
        "layers": [{"node": r.node, "weights": r.weights, "mse_nearest": r.mse_nearest,
                    "mse_adaround": r.mse_adaround, "flipped": r.flipped, "kept": r.kept} for r in res.layers]}}


RECIPES: dict[str, Recipe] = {r.name: r for r in (
    Recipe("ort-quantize_static", "per-channel", "onnxruntime quantize_static (QDQ, MinMax): the baseline",
           _baseline),
    Recipe("minmax", "per-channel", "min-max observer", _observer("minmax")),
    Recipe("percentile", "per-channel", "percentile observer", _observer("percentile")),
    Recipe("mse", "per-channel", "MSE observer", _observer("mse")),
    Recipe("entropy", "per-channel", "entropy (KL) observer", _observer("entropy")),
    Recipe("minmax-per-tensor", "per-tensor", "min-max, one weight scale per tensor", _observer("minmax", False)),
    Recipe("cle+minmax-per-tensor", "per-tensor", "cross-layer equalisation, then min-max per tensor",
           _cle(per_channel=False)),
    Recipe("cle+minmax", "per-channel", "cross-layer equalisation, then min-max", _cle(per_channel=True)),
    Recipe("minmax-per-tensor+bias-correction", "per-tensor", "min-max per tensor, empirical bias correction",
           _bias(per_channel=False)),
    Recipe("cle+minmax-per-tensor+bias-correction", "per-tensor",
           "CLE, min-max per tensor, empirical bias correction (data-free-quantization recipe, empirical BC)",
           _cle(per_channel=False, bias=True)),
    Recipe("minmax+bias-correction", "per-channel", "min-max, empirical bias correction", _bias(per_channel=True)),
    Recipe("adaround", "per-channel", "min-max ranges, AdaRound weight rounding", _adaround),
)}
