"""Names and defaults the verbs' parsers show in ``--help``, kept free of heavy imports.

Building the parser must not import onnx, numpy or onnxruntime (``npuready --help`` would pay for
imports it never uses), so the few registry names a help text lists are spelled here.
tests/commands/test_catalog.py checks every entry against the registry it mirrors.
"""
from __future__ import annotations

# npuready.lint.registry.RULES, in documentation order
RULE_IDS: tuple[str, ...] = ("R001a", "R001b", "R002", "R003", "R004", "R005", "R006", "R007", "R008", "R009")

# npuready.quant.observers.OBSERVERS
OBSERVER_NAMES: tuple[str, ...] = ("entropy", "minmax", "mse", "percentile")

# npuready.intake.apply.NAIVE_IMAGES and RECOVERY_STEPS
NAIVE_IMAGES = 16
RECOVERY_STEPS = 200

# npuready.lint.config.FAIL_ON
FAIL_ON: tuple[str, ...] = ("error", "warn", "never")
