"""The site's tabs (explicit registry, in tab order). The first tab is rendered into index.html; every other
tab's HTML is written to ``views/<name>.js`` and inserted by ``assets/site.js`` when the tab is first shown.

A tab is a template under ``templates/sections/`` that renders the inside of its ``<section class="view">``
from the build context (``render.py``); ``params`` are extra template variables (the panel tabs share one
template) and ``extra(experiments)``, when given, returns more of them at build time. To add a tab: one entry
here and one template.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class Tab:
    name: str
    label: str  # the tab's text in the navigation bar
    template: str
    title: str = ""  # the view's heading where a template reads it (view_titles)
    blurb: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    extra: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None


def _panels(name: str, title: str, blurb: str) -> Tab:
    return Tab(name, title, "sections/panels.j2", title, blurb, {"view": name})


TABS: dict[str, Tab] = {t.name: t for t in (
    Tab("findings", "Findings", "sections/findings.j2"),
    _panels("models", "Model changes",
            "What changed in a model (training, pruning, activations, quantisation method) and how accuracy and "
            "cost moved."),
    _panels("npu", "NPU analysis", "Lint findings, CPU/NPU partitions and per-layer cost per target."),
    _panels("integer", "Integer verification",
            "Float vs fake-quant vs integer: parity ladder, per-node mismatch, bit-exactness vs LiteRT."),
    Tab("reports", "Models", "sections/reports.j2", "Models",
        "One row per model report: its size, NPU segments, simulated cycles and lint counts per target, and its "
        "sanity checks. A model with a page opens its graph view and per-layer table."),
    Tab("records", "Experiment records", "sections/records.j2", "Experiment records",
        "Every stored experiment with its provenance; search and filter, open any record's raw JSON."),
    Tab("history", "History", "sections/history.j2"),
    Tab("docs", "Docs", "sections/docs.j2"),
)}
FIRST = next(iter(TABS))
VIEW_TITLES = {t.name: t.title for t in TABS.values() if t.title}
VIEW_BLURBS = {t.name: t.blurb for t in TABS.values() if t.blurb}
