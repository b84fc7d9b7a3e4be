"""The lint report: data only. Rendering lives in ``npuready.lint.render``.

``errors``/``warnings`` hold every finding of that severity, suppressed or not (the partition planner
keeps a waived ERROR node off the NPU all the same); ``blocked``, ``failed`` and the summary count only
active findings — those no waiver or baseline entry suppresses.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from npuready.lint.rule import Finding, LintOptions, Severity
from npuready.lint.suppression import BASELINE, WAIVER

_PLURAL = {"ERROR": "errors", "WARN": "warnings"}
FAIL_SEVERITIES = {"error": (Severity.ERROR,), "warn": (Severity.ERROR, Severity.WARN), "never": ()}


@dataclass(frozen=True)
class LintReport:
    model: str
    target: str
    options: LintOptions
    findings: tuple[Finding, ...]
    inference_error: str | None = None
    rules_run: tuple[str, ...] = field(default=())
    shapes: dict[str, Any] = field(default_factory=dict)  # graph.shape_summary.shape_summary(): folded counts, pins
    model_key: str = ""            # the model path relative to the configuration root (waivers, baseline, SARIF)
    config: str | None = None      # the configuration file applied, if any
    baseline: str | None = None    # the baseline file applied, if any
    fail_on: str = "error"         # which active findings fail the run (the configuration's fail-on)

    @property
    def key(self) -> str:
        return self.model_key or self.model

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.WARN)

    @property
    def infos(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.INFO)

    @property
    def active(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if not f.suppressed)

    def suppressed(self, kind: str) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.suppressed and f.suppression.kind == kind)

    def count(self, severity: Severity) -> int:
        """Active findings of one severity."""
        return sum(f.severity is severity for f in self.active)

    @property
    def blocked(self) -> bool:
        return self.failed("error")

    def failed(self, fail_on: str = "error") -> bool:
        """True when an active finding has a severity ``fail_on`` counts (error | warn | never)."""
        return any(f.severity in FAIL_SEVERITIES[fail_on] for f in self.active)

    @property
    def failing(self) -> bool:
        """Whether this report fails the run under its own ``fail_on``."""
        return self.failed(self.fail_on)

    @property
    def exit_code(self) -> int:
        return 1 if self.failing else 0

    def by_rule(self, rule_id: str) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.rule == rule_id)

    def rule_ids(self) -> set[str]:
        return {f.rule for f in self.findings}

    def blocked_nodes(self) -> set[str]:
        """Names of main-graph nodes with an ERROR finding (the partition planner keeps them off the NPU)."""
        return {f.node for f in self.errors if not f.graph}

    def to_dict(self) -> dict[str, Any]:
        from npuready.lint.registry import RULES

        summary = {_PLURAL.get(s.value, s.value.lower() + "s"): self.count(s) for s in Severity}
        return {
            "model": self.model,
            "model_key": self.key,
            "target": self.target,
            "options": {"allow_batched_input": self.options.allow_batched_input, "profile": self.options.profile},
            "findings": [f.to_dict(RULES.get(f.rule)) for f in self.findings],
            "summary": summary,
            "suppressed": {"waived": len(self.suppressed(WAIVER)), "baselined": len(self.suppressed(BASELINE))},
            "blocked": self.blocked,
            "fail_on": self.fail_on,
            "failed": self.failing,
            "config": self.config,
            "baseline": self.baseline,
            "shape_inference_error": self.inference_error,
            "shapes": self.shapes,
            "rules_run": list(self.rules_run),
            "basis": "ONNX graph structure and onnxruntime acceptance; not NPU hardware",
        }
