"""Explicit experiment registry: experiment id → runner module (imported only when run).

Add one line per experiment. The runner module exposes ``run(ctx: RunContext) -> dict``.
"""
from __future__ import annotations

RUNNERS: dict[str, str] = {
    "lint-corpus": "npuready.experiments.runners.lint_corpus",
    "partitions": "npuready.experiments.runners.partitions",
    "cost-vs-scalesim": "npuready.experiments.runners.cost_vs_scalesim",
    "cost-vs-vela": "npuready.experiments.runners.cost_vs_vela",
    "cost-per-target": "npuready.experiments.runners.cost_per_target",
    "preprocess-doctor": "npuready.experiments.runners.preprocess_doctor",
    "norm-fusion": "npuready.experiments.runners.norm_fusion",
    "zoo-training": "npuready.experiments.runners.zoo_training",
    "intake": "npuready.experiments.runners.intake",
    "bitexact-litert": "npuready.experiments.runners.bitexact_litert",
    "bitexact-realworld": "npuready.experiments.runners.bitexact_realworld",
    "parity-ladder": "npuready.experiments.runners.parity_ladder",
    "ptq-methods": "npuready.experiments.runners.ptq_methods",
    "probes": "npuready.experiments.runners.probes",
    "pruning": "npuready.experiments.runners.pruning",
    "activation-swap": "npuready.experiments.runners.activation_swap",
    "realworld-corpus": "npuready.experiments.runners.realworld_corpus",
    "vendor-export": "npuready.experiments.runners.vendor_export",
    "trained-thirdparty": "npuready.experiments.runners.trained_thirdparty",
    "mixed-precision": "npuready.experiments.runners.mixed_precision",
}

# Experiment kinds: a spec with ``kind = "<kind>"`` runs this runner with its own [params] (no line above).
KINDS: dict[str, str] = {
    "model-report": "npuready.experiments.runners.model_report",
}


def runner_module(exp_id: str, kind: str = "") -> str | None:
    """The runner module of an experiment: its kind's, else its own registered one, else None."""
    return KINDS.get(kind) if kind else RUNNERS.get(exp_id)
