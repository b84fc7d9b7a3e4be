"""Hand-designed views for the experiments the project knows about (explicit registry).

Each known experiment has a template ``templates/views/<id>.j2`` defining two macros,
``headlines(fig, E, x)`` (sentences for the first screen, numbers through ``fig.num``) and
``body(fig, E, x)`` (its panel in its view), and optionally a ``prepare(fig, exp) -> dict`` that
builds charts/tables for ``x``. An absent experiment shows "not run yet"; a stored experiment whose
layout the hand view cannot read falls back to the generic view with a build warning.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from npuready.site.views import (cost, intake, integer, lint_corpus, mixed_precision, models, norm_fusion, partitions,
                                 probes, pruning)


@dataclass(frozen=True)
class Known:
    view: str
    title: str
    prepare: Callable[..., dict[str, Any]] | None = None


# Order inside each view follows the story: models → NPU analysis → integer verification.
KNOWN: dict[str, Known] = {
    "activation-swap": Known("models", "Activation swap and recovery training", models.prepare_swap),
    "pruning": Known("models", "Cost-aware pruning", pruning.prepare),
    "zoo-training": Known("models", "Model zoo: training cost and test accuracy", models.prepare_zoo),
    "intake": Known("models", "Intake reports: diagnose, prescribe, apply", intake.prepare),
    "norm-fusion": Known("models", "Input normalisation fused into the first layer", norm_fusion.prepare),
    "preprocess-doctor": Known("records", "Preprocessing mismatch doctor", None),
    "lint-corpus": Known("npu", "Lint of the model zoo and the onnx corpus", lint_corpus.prepare),
    "probes": Known("npu", "Operator probes (onnxruntime baseline, not NPU support)", probes.prepare),
    "partitions": Known("npu", "CPU head / NPU body / CPU tail partitions", partitions.prepare),
    "cost-per-target": Known("npu", "Per-layer cost per NPU target", cost.prepare_per_target),
    "cost-vs-scalesim": Known("npu", "Cost model vs SCALE-Sim", cost.prepare_vs_totals),
    "cost-vs-vela": Known("npu", "Cost model vs Arm Vela", cost.prepare_vs),
    "ptq-methods": Known("integer", "Post-training quantization methods", integer.prepare_ptq),
    "parity-ladder": Known("integer", "Parity ladder: float → fake-quant → integer", integer.prepare_ladder),
    "bitexact-litert": Known("integer", "Bit-exactness vs LiteRT reference kernels", integer.prepare_bitexact),
    "mixed-precision": Known("integer", "Sensitivity and mixed precision: which layers break INT8, what keeping "
                             "them float costs", mixed_precision.prepare),
}
