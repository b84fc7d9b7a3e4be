"""The task-metric descriptor and what it returns.

A ``TaskMetric`` scores a pair of output sets (reference = the float rung, or fake-quant for
integer ⇄ fake-quant; candidate = the quantised rung), each a tuple of arrays stacked over images in the
model's output order, and says whether the score reaches its tolerance. Every metric is "higher is
better": a rung passes when ``value >= limit``. ``TaskChoice`` is which metric a ladder uses and why
(declared with ``--task`` or inferred from the output shapes, ``tasks.infer``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

Outputs = Sequence[np.ndarray]


@dataclass(frozen=True)
class TaskScore:
    metric: str                  # the metric's name, e.g. "IoU of the thresholded map"
    value: float                 # higher is better; ``inf`` only for an SNR with no noise at all
    limit: float                 # the tolerance it was judged at
    unit: str = ""               # "" (a fraction) or "dB"
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.value >= self.limit

    def at(self, limit: float) -> "TaskScore":
        """The same score judged at another tolerance."""
        return TaskScore(self.metric, self.value, float(limit), self.unit, self.details)

    def shown(self) -> str:
        """The value for people: ``0.9731`` or ``31.2 dB`` (``inf dB`` when identical)."""
        if self.unit == "dB":
            return "inf dB" if math.isinf(self.value) else f"{self.value:.1f} dB"
        return f"{self.value:.4f}"

    def to_dict(self) -> dict:
        finite = math.isfinite(self.value)
        return {"metric": self.metric, "value": self.value if finite else None, "identical": not finite,
                "limit": self.limit, "unit": self.unit, "passed": self.passed, "details": dict(self.details)}


@dataclass(frozen=True)
class TaskMetric:
    name: str                    # the --task name
    metric: str                  # what the value measures
    tolerance: float             # default limit (value >= tolerance passes)
    gross_below: float           # below this, a disagreement is gross (a broken build), not rounding
    doc: str                     # one line for docs and --help
    score_fn: Callable[[Outputs, Outputs, Mapping[str, Any]], tuple[float, dict]] = field(repr=False)
    unit: str = ""

    def score(self, reference: Outputs, candidate: Outputs, options: Mapping[str, Any] | None = None,
              limit: float | None = None) -> TaskScore:
        value, details = self.score_fn(tuple(reference), tuple(candidate), dict(options or {}))
        return TaskScore(self.metric, float(value), self.tolerance if limit is None else float(limit), self.unit,
                         details)


@dataclass(frozen=True)
class TaskChoice:
    name: str
    source: str                  # "declared" | "inferred"
    why: str                     # e.g. "inferred from output [1, 40, 6625]"
    options: Mapping[str, Any] = field(default_factory=dict)  # e.g. detection layout, input size

    def line(self) -> str:
        return f"task: {self.name} ({self.why})"

    def to_dict(self) -> dict:
        return {"name": self.name, "source": self.source, "why": self.why,
                "options": {k: list(v) if isinstance(v, tuple) else v for k, v in self.options.items()}}
