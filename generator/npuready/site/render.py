"""Render the whole site in memory: ``{relative path: bytes}``. Deterministic (no clock, sorted input)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

import jinja2
from markupsafe import Markup

from npuready.site import pointer
from npuready.site.docs import DocPage, render_doc
from npuready.site.embed import script_json
from npuready.site.fmt import is_number
from npuready.site.modelindex import excerpt, is_model_report, light_ids, model_rows, page_path
from npuready.site.modelpage import render_model_page
from npuready.site.numbers import Figures, MissingSource
from npuready.site.search_index import INDEX_FILE, search_script
from npuready.site.source import Doc, Experiment
from npuready.site.tables import SectionView, section_view
from npuready.site.vendor import VENDOR_FILES
from npuready.site.views import KNOWN

VIEW_TITLES = {
    "models": "Model experiments",
    "reports": "Models",
    "npu": "NPU analysis",
    "integer": "Integer verification",
    "records": "Experiment records",
}
VIEW_BLURBS = {
    "models": "What changed in a model and how accuracy and cost moved.",
    "reports": "One row per model report: its size, NPU segments, simulated cycles and lint counts per target, and "
               "its sanity checks. A model with a page opens its graph view and per-layer table.",
    "npu": "Lint findings, CPU/NPU partitions and per-layer cost per target.",
    "integer": "Float vs fake-quant vs integer: parity ladder, per-node mismatch, bit-exactness vs LiteRT.",
    "records": "Every stored experiment with its provenance; search and filter, open any record's raw JSON.",
}
ASSETS = ("site.css", "site.js", "modelview.js", "tables.css", "tables.js", "search.js")
RECORDS_DOC = "EXPERIMENTS"
AUTO_HEADLINE_NUMBERS = 4


@dataclass(frozen=True)
class Panel:
    """One experiment's block inside a view (hand-designed or generic) or a 'not run yet' placeholder."""

    exp_id: str
    title: str
    view: str
    present: bool
    headlines: Markup = Markup("")
    body: Markup = Markup("")
    hand: bool = False


@dataclass
class SiteBuild:
    files: dict[str, bytes]
    figures: int
    warnings: list[str] = field(default_factory=list)


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("npuready.site", "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True)


def auto_numbers(exp: Experiment) -> list[tuple[str, str]]:
    """(label, pointer) of the first few scalar numbers of the results, for a generic headline.
    A section named ``summary`` or ``headline`` (the runner's own choice of headline numbers) comes first."""
    found: list[tuple[str, str]] = []
    preferred = [n for n in ("headline", "summary") if isinstance(exp.results.get(n), dict)]
    limit = AUTO_HEADLINE_NUMBERS + (2 if preferred else 0)

    def walk(node: Any, path: str, label: list[str], depth: int) -> None:
        for key, value in node.items():
            if len(found) >= limit:
                return
            if is_number(value):
                found.append((" ".join([*label, key]).replace("_", " "), pointer.join(path, key)))
            elif isinstance(value, dict) and depth < 2:
                walk(value, pointer.join(path, key), [*label, key], depth + 1)

    for name in preferred + [n for n in exp.results if n not in preferred]:
        walk(exp.results[name], pointer.join("/results", name), [] if name in preferred else [name], 0)
    return found


def _generic(env: jinja2.Environment, fig: Figures, exp: Experiment, body: bool = True) -> tuple[Markup, Markup]:
    macros = env.get_template("generic.j2").make_module({})
    head = macros.headlines(fig, exp, auto_numbers(exp))
    if not body:
        return head, Markup("")
    sections = [section_view(fig, exp.id, name, sec) for name, sec in exp.results.items()]
    return head, macros.body(fig, exp, sections)


def _panel(env: jinja2.Environment, fig: Figures, exp: Experiment, warnings: list[str], strict: bool,
           body: bool = True) -> Panel:
    known = KNOWN.get(exp.id)
    template = f"views/{exp.id}.j2"
    if known is not None and template in env.list_templates():
        mark = len(fig.emitted)
        try:
            extra = known.prepare(fig, exp) if known.prepare else {}
            macros = env.get_template(template).make_module({})
            head = macros.headlines(fig, exp, extra)
            return Panel(exp.id, exp.title, exp.view, True, head, macros.body(fig, exp, extra) if body else Markup(""),
                         hand=body)
        except (MissingSource, KeyError, IndexError, TypeError, AttributeError, jinja2.UndefinedError) as exc:
            if strict:
                raise MissingSource(f"site: {exp.id}: hand-designed view {template} cannot read this result "
                                    f"layout ({type(exc).__name__}: {exc}); update the view, or build with "
                                    f"--lenient to fall back to the generic view") from None
            del fig.emitted[mark:]
            warnings.append(f"{exp.id}: hand-designed view cannot read this result layout ({exc}); "
                            f"showing the generic view — update {template}")
    head, generic_body = _generic(env, fig, exp, body)
    return Panel(exp.id, exp.title, exp.view, True, head, generic_body)


def render_site(experiments: Mapping[str, Experiment], docs: Mapping[str, Doc], strict: bool = True) -> SiteBuild:
    """Render everything. ``strict``: a hand-designed view that cannot find its figures fails the build;
    otherwise that experiment falls back to the generic view and a warning is returned."""
    env = environment()
    fig = Figures(experiments)
    warnings: list[str] = []
    views: dict[str, list[Panel]] = {v: [] for v in ("models", "npu", "integer")}
    # Records-only experiments get headlines (on the findings page) but no panel body.
    panels = {exp_id: _panel(env, fig, exp, warnings, strict, body=exp.view in views)
              for exp_id, exp in sorted(experiments.items())}
    for exp_id, known in KNOWN.items():
        if exp_id in panels:
            continue
        views.setdefault(known.view, []).append(Panel(exp_id, known.title, known.view, False))
    ordered = [i for i in KNOWN if i in panels] + [i for i in panels if i not in KNOWN]
    for exp_id in ordered:
        panel = panels[exp_id]
        views.setdefault(panel.view, []).append(panel)
    for v in views:  # present first (story order), then "not run yet"
        views[v].sort(key=lambda p: not p.present)
    light = light_ids(experiments)  # heavy results: their records live on the Models view and model pages
    records = {exp_id: [] if exp_id in light else
               [section_view(fig, exp_id, name, sec, compact=exp_id in panels and panels[exp_id].hand)
                for name, sec in exp.results.items()]
               for exp_id, exp in sorted(experiments.items())}
    model_targets, models = model_rows(fig, experiments)
    # docs/EXPERIMENTS.md is generated from the same JSON: on the site its drillable form is the records view.
    doc_pages: list[DocPage] = [render_doc(d) for name, d in sorted(docs.items()) if name != RECORDS_DOC]
    assets = {f"assets/{name}": resources.files("npuready.site").joinpath("assets", name).read_bytes()
              for name in ASSETS}
    data = {exp_id: Markup(script_json(_embedded(fig, exp_id, exp, light))) for exp_id, exp in sorted(experiments.items())}
    html = env.get_template("index.html.j2").render(
        fig=fig, experiments=dict(sorted(experiments.items())), views=views, panels=panels, records=records,
        docs=doc_pages, hand={i for i, p in panels.items() if p.hand}, view_titles=VIEW_TITLES, view_blurbs=VIEW_BLURBS, known=KNOWN,
        data=data, models=models, model_targets=model_targets, light=light,
        model_pages={i: page_path(i) for i, e in experiments.items() if is_model_report(e)},
        vendor=VENDOR_FILES, asset_version={k: hashlib.sha256(v).hexdigest()[:12] for k, v in assets.items()})
    files = {"index.html": html.encode("utf-8"), **assets, INDEX_FILE: search_script(experiments).encode("utf-8")}
    for exp_id, exp in sorted(experiments.items()):
        if is_model_report(exp):
            files[page_path(exp_id)] = render_model_page(
                env, exp.doc, exp_id=exp_id, title=exp.title, root="/results", prefix="../", back="../index.html#reports",
                source=f"experiments/{exp_id}/result.json").encode("utf-8")
    return SiteBuild(files=files, figures=len(fig.emitted), warnings=warnings)


def _embedded(fig: Figures, exp_id: str, exp: Experiment, light: set[str]) -> Any:
    if exp_id not in light:
        return exp.doc
    where = f"{page_path(exp_id)} embeds the whole result" if is_model_report(exp) else "the Models view"
    pointers = [p for e, p in fig.emitted if e == exp_id] + fig.raw_paths(exp_id)
    return excerpt(exp.doc, pointers, f"index.html embeds the records its numbers point at; "
                                      f"experiments/{exp_id}/result.json is the whole record ({where})")


def write_site(build: SiteBuild, out: Path) -> list[Path]:
    from npuready.atomic import write_bytes

    return [write_bytes(out / rel, data) for rel, data in sorted(build.files.items())]


def stale_files(build: SiteBuild, out: Path) -> list[str]:
    """Files under ``out`` that differ from what the renderer produces now (missing counts as stale)."""
    stale = []
    for rel, data in sorted(build.files.items()):
        path = out / rel
        if not path.exists() or path.read_bytes() != data:
            stale.append(str(path))
    return stale
