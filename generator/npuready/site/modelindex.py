"""The Models index: one row per model report (``kind = "model-report"`` experiments, each with its own page
``models/<id>.html``) and one per model summarised by the ``realworld-corpus`` experiment. A corpus model that
is the same ONNX graph as a model report (equal ``sha256``) is not listed twice: the report's row names the
corpus as a second place it is stored. A corpus row has no page of its own; its ``hint`` is the command that
writes one. Every row shows the edge policy its partition used (graph inputs and outputs on the CPU or the
NPU), since library detection recipes and ONNX files default differently.

Every number is a ``Figures.num`` button. Model reports are heavy (a graph description and per-node records), so
``index.html`` embeds only an excerpt of them — the records its own numbers point at (:func:`excerpt`); the whole
report is embedded once in its model page, which renders the per-node parts in the browser.
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping

from markupsafe import Markup

from npuready.site import pointer
from npuready.site.numbers import Figures
from npuready.site.source import Experiment

CORPUS = "realworld-corpus"
EXCERPT_NOTE = "_excerpt"


def is_model_report(exp: Experiment) -> bool:
    spec = exp.doc.get("spec")
    return isinstance(spec, dict) and spec.get("kind") == "model-report"


def page_path(exp_id: str) -> str:
    return f"models/{exp_id}.html"


@dataclass(frozen=True)
class TargetCells:
    segments: Markup
    cycles: Markup
    errors: Markup
    warnings: Markup


@dataclass(frozen=True)
class ModelRow:
    exp_id: str
    model: Markup
    page: str | None
    nodes: Markup
    checks: Markup
    targets: dict[str, TargetCells] = field(default_factory=dict)
    edges: Markup | str = ""
    also: tuple[str, ...] = ()  # other experiments that hold the same model
    hint: str = ""  # for a row without a page: the command that writes one


def _report_row(fig: Figures, exp: Experiment) -> ModelRow:
    r, e = "/results", exp.id
    cells = {}
    for t in exp.results["model"]["targets"]:
        cells[t] = TargetCells(
            segments=fig.num(e, pointer.join(r, "partition", "targets", t, "npu_segments")),
            cycles=fig.num(e, pointer.join(r, "cost", "targets", t, "total", "cycles")),
            errors=fig.num(e, pointer.join(r, "lint", "targets", t, "summary", "errors")),
            warnings=fig.num(e, pointer.join(r, "lint", "targets", t, "summary", "warnings")))
    ok = exp.results["checks"]["all_ok"]
    edges = fig.text(e, "/results/model/edges") if "edges" in exp.results["model"] else ""
    return ModelRow(e, fig.text(e, "/results/model/label"), page_path(e), fig.num(e, "/results/graph/node_count"),
                    fig.raw(e, "/results/checks", label="all pass" if ok else "some fail"), cells, edges)


def _corpus_sha(exp: Experiment, model: str) -> str | None:
    entry = exp.results.get("reports", {}).get("models", {}).get(model, {})
    return entry.get("model", {}).get("sha256")


def _corpus_rows(fig: Figures, exp: Experiment, skip: frozenset[str] = frozenset()) -> list[ModelRow]:
    rows: dict[str, dict[str, Any]] = {}
    for i, row in enumerate(exp.results["summary"]["rows"]):
        rows.setdefault(row["model"], {})[row["target"]] = (i, row)
    out = []
    for model, per_target in rows.items():
        if model in skip:
            continue
        cells, first, ok = {}, None, True
        for t, (i, row) in per_target.items():
            p = f"/results/summary/rows/{i}"
            first = first if first is not None else i
            ok = ok and bool(row["checks_ok"])
            cells[t] = TargetCells(fig.num(exp.id, p + "/npu_segments"), fig.num(exp.id, p + "/cycles"),
                                   fig.num(exp.id, p + "/lint_errors"), fig.num(exp.id, p + "/lint_warnings"))
        base = f"/results/summary/rows/{first}"
        edges = fig.text(exp.id, base + "/edges") if "edges" in exp.results["summary"]["rows"][first] else ""
        out.append(ModelRow(exp.id, fig.text(exp.id, base + "/model"), None, fig.num(exp.id, base + "/nodes"),
                            fig.raw(exp.id, base, label="all pass" if ok else "some fail"), cells, edges,
                            hint=f"npuready report library:{model} --out DIR"))
    return out


def model_rows(fig: Figures, experiments: Mapping[str, Experiment]) -> tuple[list[str], list[ModelRow]]:
    """(targets in column order, rows): model reports first, then the corpus models no report already shows."""
    reports = [exp for _, exp in sorted(experiments.items()) if is_model_report(exp)]
    rows = [_report_row(fig, exp) for exp in reports]
    if CORPUS in experiments:
        corpus = experiments[CORPUS]
        by_sha = {_corpus_sha(corpus, r["model"]): r["model"] for r in corpus.results["summary"]["rows"]}
        by_sha.pop(None, None)
        dup = set()
        for i, exp in enumerate(reports):
            model = by_sha.get(exp.results["model"].get("sha256"))
            if model is not None:
                dup.add(model)
                rows[i] = dataclasses.replace(rows[i], also=(CORPUS,))
        rows += _corpus_rows(fig, corpus, frozenset(dup))
    targets = list(dict.fromkeys(t for r in rows for t in r.targets))
    return targets, rows


def light_ids(experiments: Mapping[str, Experiment]) -> set[str]:
    """Experiments embedded in index.html only as an excerpt."""
    return {i for i, e in experiments.items() if is_model_report(e)} | ({CORPUS} & set(experiments))


def excerpt(doc: Mapping[str, Any], pointers: list[str], note: str) -> dict[str, Any]:
    """``doc`` without its ``results``, plus the values at ``pointers`` (whole subtrees for structures);
    list items not pointed at are ``null``. ``note`` says where the whole record is."""
    out: dict[str, Any] = {k: copy.deepcopy(v) for k, v in doc.items() if k != "results"}
    out[EXCERPT_NOTE] = note
    out["results"] = {}
    for p in sorted(set(pointers)):
        tokens = pointer.split(p)
        if len(tokens) < 2 or tokens[0] != "results":
            continue
        src, dst = doc, out
        for depth, t in enumerate(tokens):
            last = depth == len(tokens) - 1
            if isinstance(src, list):
                k = int(t)
                src = src[k]
                if dst[k] is None:
                    dst[k] = copy.deepcopy(src) if last else ([None] * len(src) if isinstance(src, list) else {})
                dst = dst[k]
            else:
                src = src[t]
                if t not in dst:
                    dst[t] = copy.deepcopy(src) if last else ([None] * len(src) if isinstance(src, list) else {})
                dst = dst[t]
    return out
