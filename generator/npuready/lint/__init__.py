"""The NPU-safety linter: rules with ids, severities and reasons (ERROR blocks, WARN records)."""
from npuready.lint.api import lint
from npuready.lint.report import LintReport
from npuready.lint.rule import Finding, LintOptions, Rule, Severity

__all__ = ["Finding", "LintOptions", "LintReport", "Rule", "Severity", "lint"]
