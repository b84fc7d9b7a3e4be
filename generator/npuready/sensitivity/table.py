"""The sensitivity table: one row per quantised layer, ranked by what keeping it float recovers.

``metric_int8`` is the task metric of the whole INT8 (fake-quant) model against float; a row's ``metric_float``
is that metric with only this layer kept float (``variants`` "float"), ``metric_output`` with only its output
activation unrounded ("output"); gains are the differences to ``metric_int8`` (positive = better). ``sqnr_db``
compares fake-quant with float at the layer's output in the all-INT8 model. All measured (onnxruntime).
``costs`` (per target, ``sensitivity.cost``) are simulated.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class LayerCost:
    target: str
    extra_cycles: int          # end-to-end cycles added vs the all-INT8 plan (simulated)
    extra_transfer_bytes: int  # CPU<->NPU bytes added per inference (int8 tensors, simulated)
    extra_segments: int        # partition segments added
    how: str                   # "cpu" (no float/int16 precision declared) or the declared precision


@dataclass(frozen=True)
class LayerRow:
    name: str
    op_type: str
    metric_float: float
    metric_output: float
    gain_float: float
    gain_output: float
    sqnr_db: float | None
    costs: tuple[LayerCost, ...] = ()

    def cost(self, target: str) -> LayerCost | None:
        return next((c for c in self.costs if c.target == target), None)


@dataclass(frozen=True)
class SensitivityTable:
    model: str
    task: str
    metric: str                # what the metric measures (the gate's task metric)
    images: int
    metric_int8: float
    rows: tuple[LayerRow, ...]  # ranked: largest gain_float first
    evidence: dict = field(default_factory=lambda: {"metrics": "measured", "sqnr_db": "measured",
                                                     "costs": "simulated"})

    @property
    def total_loss(self) -> float:
        """What INT8 loses: 1 − metric_int8 for a fraction metric (agreement, IoU)."""
        return max(0.0, 1.0 - self.metric_int8)

    def top_share(self, k: int) -> float:
        """The top-``k`` layers' summed positive gains as a share of the total loss (0 when nothing is lost)."""
        if self.total_loss <= 0:
            return 0.0
        return sum(max(0.0, r.gain_float) for r in self.rows[:k]) / self.total_loss

    def row(self, name: str) -> LayerRow:
        return next(r for r in self.rows if r.name == name)

    def to_dict(self, top: int | None = None) -> dict:
        rows = self.rows if top is None else self.rows[:top]
        d = {k: v for k, v in asdict(self).items() if k != "rows"}
        d["total_loss"] = self.total_loss
        d["top_share"] = {str(k): self.top_share(k) for k in (1, 3, 5, 10) if k <= len(self.rows)}
        d["rows"] = [{**asdict(r), "sqnr_db": r.sqnr_db if r.sqnr_db is None or math.isfinite(r.sqnr_db) else None}
                     for r in rows]
        return d


def ranked(rows) -> tuple[LayerRow, ...]:
    """Largest ``gain_float`` first; ties by larger ``gain_output``, then lower SQNR, then name."""
    def key(r: LayerRow):
        s = r.sqnr_db if r.sqnr_db is not None else math.inf
        return (-r.gain_float, -r.gain_output, s, r.name)
    return tuple(sorted(rows, key=key))
