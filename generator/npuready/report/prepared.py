"""Everything a report reads, validated before its first stage runs: the model (loaded, pins applied), every
target and, when the quantize stage runs, the calibration inputs. A bad ``--target`` or ``--calib`` is refused
here (exit 2, one line) — before lint, partition and cost run and before any progress line is printed."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from npuready.report.request import ReportRequest
from npuready.report.source import ModelSource, resolve


@dataclass(frozen=True)
class Calibration:
    x: np.ndarray
    labels: np.ndarray | None
    what: str  # where the inputs came from, for the report


@dataclass(frozen=True)
class PreparedReport:
    source: ModelSource
    targets: tuple[Any, ...]  # npuready.targets Target objects, in the request's order
    calibration: Calibration | None  # None unless the quantize stage runs
    seconds: float  # wall time of loading and checking (measured; the report's load_s)


def prepare(request: ReportRequest) -> PreparedReport:
    """Load and check every input of ``request`` (raises ``InputError`` on the first bad one)."""
    from npuready.targets import load_target

    start = time.perf_counter()
    targets = tuple(load_target(name) for name in request.targets)  # cheap: before the model is loaded
    src = resolve(request)
    calibration = None
    if request.runs_quantize:
        from npuready.report.calibration import calibration_inputs

        calibration = Calibration(*calibration_inputs(request.calibration, request.preset, src.graph, request.images))
    return PreparedReport(source=src, targets=targets, calibration=calibration, seconds=time.perf_counter() - start)
