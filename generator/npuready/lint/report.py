"""The lint report: data only. Rendering lives in ``npuready.lint.render``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from npuready.lint.rule import Finding, LintOptions, Severity


@dataclass(frozen=True)
class LintReport:
    model: str
    target: str
    options: LintOptions
    findings: tuple[Finding, ...]
    inference_error: str | None = None
    rules_run: tuple[str, ...] = field(default=())
    shapes: dict[str, Any] = field(default_factory=dict)  # Graph.shape_summary(): folded counts, pins

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.WARN)

    @property
    def blocked(self) -> bool:
        return bool(self.errors)

    @property
    def exit_code(self) -> int:
        return 1 if self.blocked else 0

    def by_rule(self, rule_id: str) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.rule == rule_id)

    def rule_ids(self) -> set[str]:
        return {f.rule for f in self.findings}

    def blocked_nodes(self) -> set[str]:
        """Names of main-graph nodes with an ERROR finding (the partition planner keeps them off the NPU)."""
        return {f.node for f in self.errors if not f.graph}

    def to_dict(self) -> dict[str, Any]:
        from npuready.lint.registry import RULES

        return {
            "model": self.model,
            "target": self.target,
            "options": {"allow_batched_input": self.options.allow_batched_input},
            "findings": [f.to_dict(RULES.get(f.rule)) for f in self.findings],
            "summary": {"errors": len(self.errors), "warnings": len(self.warnings)},
            "blocked": self.blocked,
            "shape_inference_error": self.inference_error,
            "shapes": self.shapes,
            "rules_run": list(self.rules_run),
            "basis": "ONNX graph structure and onnxruntime acceptance; not NPU hardware",
        }
