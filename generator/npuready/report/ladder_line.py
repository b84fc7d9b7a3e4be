"""The one line ``npuready report --calib`` ends with: the parity ladder, the gate verdict and its cause.

Read from the report's ``ladder`` section (``report.build._ladder``); nothing is recomputed. The exit code
follows the same verdict (``report_failed``), so the last line says why a report exits 1.
"""
from __future__ import annotations

import math
from typing import Any


PAIRS = ("fake_quant_vs_float", "integer_vs_float", "integer_vs_fake_quant")
RUNGS = ("float", "fake_quant", "integer")


def _ordered(values: dict[str, float], order: tuple[str, ...]) -> list[tuple[str, float]]:
    """Known keys in ladder order, others after them by name (JSON from disk may be key-sorted)."""
    return sorted(values.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else len(order), kv[0]))


def _pair(name: str) -> str:
    return name.replace("_vs_", " vs ").replace("_", "-")


def _task(ladder: dict[str, Any]) -> str | None:
    """'text detection, IoU of the thresholded map: fake-quant vs float 0.8710, ...' for a task that is not
    classification (its top-1 agreement of raw output tensors says little), else None."""
    task, scores = ladder.get("task") or {}, ladder.get("task_scores") or {}
    if not scores or task.get("name", "classification") == "classification":
        return None
    from npuready.verify.tasks.metric import TaskScore

    metric = next(iter(scores.values())).get("metric", "task metric")
    shown = [f"{_pair(pair)} " + TaskScore(metric, math.inf if s.get("identical") else s["value"], s["limit"],
                                            s.get("unit", "")).shown() for pair, s in _ordered(scores, PAIRS)]
    return f"{task['name']}, {metric}: " + ", ".join(shown)


def _agreement(ladder: dict[str, Any]) -> str:
    task = _task(ladder)
    if task is not None:
        return task
    parts = [f"{_pair(pair)} {value:.4f}" for pair, value in _ordered(ladder.get("agreement", {}), PAIRS)]
    acc = _ordered(ladder.get("accuracy", {}), RUNGS)
    if acc:
        parts.append("accuracy " + " / ".join(f"{rung.replace('_', '-')} {v:.4f}" for rung, v in acc))
    return ", ".join(parts) or "no rung ran"


def ladder_line(section: dict[str, Any] | None) -> str | None:
    """'ladder (measured, N inputs): ...; GATE PASS|FAIL: ...; cause: ...', or None without a ladder section."""
    if not section:
        return None
    if section.get("status") != "ran":
        return f"ladder not run: {section.get('reason', 'no reason recorded')}"
    ladder, gate = section["ladder"], section["gate"]
    head = f"ladder ({section.get('evidence', 'measured')}, {ladder['images']} inputs): {_agreement(ladder)}"
    if gate["passed"]:
        return f"{head}; GATE PASS"
    line = f"{head}; GATE FAIL: {'; '.join(gate['reasons'])}"
    return f"{line}; cause: {gate['cause']}" if gate.get("cause") else line
