"""npuready: NPU readiness, cost and INT8 parity for vision models.

Public API (lazy, so ``import npuready`` stays cheap):
``npuready.lint(model_or_path, target=..., allow_batched_input=False)``.
"""
from __future__ import annotations

__version__ = "0.1.0"


def __getattr__(name: str):
    if name == "lint":
        from npuready.lint import lint

        return lint
    raise AttributeError(f"module 'npuready' has no attribute {name!r}")
