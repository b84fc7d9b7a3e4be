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
from npuready.site.embed import script_js, script_json
from npuready.site.fmt import is_number
from npuready.site.modelindex import excerpt, is_model_report, light_ids, model_rows, page_path
from npuready.site.sensitivity_overlay import overlay_for
from npuready.site.modelpage import PAGE_ASSETS, render_model_page
from npuready.site.numbers import Figures, MissingSource
from npuready.site.refs import expand, localize, pack
from npuready.site.search_index import INDEX_FILE, search_script
from npuready.site.source import Doc, Experiment
from npuready.site.tables import section_view
from npuready.site.tabs import FIRST, TABS, VIEW_BLURBS, VIEW_TITLES
from npuready.site.vendor import VENDOR_FILES
from npuready.site.views import KNOWN
from npuready.site.volatile import content_key

# what index.html loads, in this order (stylesheets first)
INDEX_ASSETS = ("site.css", "tables.css", "site.js", "drilldown.js", "history.js", "tables.js", "search.js")
# copied to site/assets/ (+ what model pages load)
ASSETS = (*INDEX_ASSETS, *(n for n in PAGE_ASSETS if n not in INDEX_ASSETS))
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
    """``files``: what ``npuready site`` writes. ``page``: the whole site as one HTML page with every tab's HTML in
    place and each drill-down as ``data-exp``/``data-path`` — what the browser shows once every tab was opened
    (for tests and tools). ``records``: the JSON the site carries for each experiment (``data/<id>.js``)."""

    files: dict[str, bytes]
    figures: int
    warnings: list[str] = field(default_factory=list)
    page: str = ""
    records: dict[str, Any] = field(default_factory=dict)


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("npuready.site", "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True)


def auto_numbers(exp: Experiment) -> list[tuple[str, str]]:
    """(label, pointer) of the first few scalar numbers of the results, for a generic headline.
    A section named ``headline``, ``totals`` or ``summary`` (the runner's own choice of headline numbers) comes
    first."""
    found: list[tuple[str, str]] = []
    preferred = [n for n in ("headline", "totals", "summary") if isinstance(exp.results.get(n), dict)]
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


def render_site(experiments: Mapping[str, Experiment], docs: Mapping[str, Doc], strict: bool = True,
                history_script: str = "") -> SiteBuild:
    """Render everything. ``strict``: a hand-designed view that cannot find its figures fails the build;
    otherwise that experiment falls back to the generic view and a warning is returned. ``history_script``: the
    history script this build also writes (``npuready site --history``: ``history-data.js``), which the History
    view then loads; "" (the committed site): the page never asks for it and the view says it was not built."""
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
    context = dict(
        history_script=history_script, fig=fig, experiments=dict(sorted(experiments.items())), views=views,
        panels=panels, records=records, docs=doc_pages, hand={i for i, p in panels.items() if p.hand},
        view_titles=VIEW_TITLES, view_blurbs=VIEW_BLURBS, known=KNOWN, models=models, model_targets=model_targets,
        light=light,
        model_pages={i: page_path(i) for i, e in experiments.items() if is_model_report(e)})
    tab_html = {name: env.get_template(tab.template).render(
        {**context, **tab.params, **(tab.extra(experiments) if tab.extra else {})}) for name, tab in TABS.items()}
    embedded = {exp_id: _embedded(fig, exp_id, exp, light) for exp_id, exp in sorted(experiments.items())}
    files: dict[str, bytes] = {f"assets/{name}": resources.files("npuready.site").joinpath("assets", name).read_bytes()
                               for name in ASSETS}
    for name, html in tab_html.items():
        if name != FIRST:
            local, used = localize(html, fig.refs)
            files[f"views/{name}.js"] = _register("registerView", name, {"html": local, "refs": pack(used)})
    for exp_id, doc in embedded.items():
        files[f"data/{exp_id}.js"] = _register("registerRecord", exp_id, doc)
    files[INDEX_FILE] = search_script(experiments).encode("utf-8")
    version = {k: _version(v) for k, v in files.items()}
    manifest = {"first": FIRST, "vendor": list(VENDOR_FILES),
                "views": {n: f"views/{n}.js?v={version[f'views/{n}.js']}" for n in TABS if n != FIRST},
                "records": {e: f"data/{e}.js?v={version[f'data/{e}.js']}" for e in embedded},
                "panels": {p.exp_id: p.view for ps in views.values() for p in ps},
                "charts": [n for n, h in tab_html.items() if 'class="chart-spec"' in h]}
    first_html, first_refs = localize(tab_html[FIRST], fig.refs)
    files["index.html"] = _shell(env, fig, {FIRST: first_html}, manifest, pack(first_refs), version).encode("utf-8")
    page = expand(_shell(env, fig, tab_html, manifest, pack([]), version), fig.refs)
    for exp_id, exp in sorted(experiments.items()):
        if is_model_report(exp):
            files[page_path(exp_id)] = render_model_page(
                env, exp.doc, exp_id=exp_id, title=exp.title, root="/results", prefix="../",
                back="../index.html#reports", source=f"experiments/{exp_id}/result.json",
                rules="../index.html#doc=rules/", sensitivity=overlay_for(exp, experiments)).encode("utf-8")
    return SiteBuild(files=files, figures=len(fig.emitted), warnings=warnings, page=page, records=embedded)


def _shell(env: jinja2.Environment, fig: Figures, contents: Mapping[str, str], manifest: dict[str, Any],
           first_refs: dict[str, Any], version: Mapping[str, str]) -> str:
    """index.html: the tabs, the HTML of the tabs in ``contents`` (the others are empty sections), the manifest."""
    return env.get_template("index.html.j2").render(
        fig=fig, tabs=TABS, first=FIRST, contents={n: Markup(h) for n, h in contents.items()},
        manifest=Markup(script_json(manifest)), first_refs=Markup(script_json(first_refs)), index_assets=INDEX_ASSETS,
        asset_version=version)


def _register(function: str, name: str, value: Any) -> bytes:
    """A script file that hands ``value`` to ``window.npuready.<function>(name, value)`` (file:// cannot fetch)."""
    return f"npuready.{function}({script_js(name)},{script_js(value)});\n".encode("utf-8")


def _version(data: bytes) -> str:
    """Cache-busting tag of a file: a hash of its content, not of the commit it was built at."""
    return hashlib.sha256(content_key(data)).hexdigest()[:12]


def _embedded(fig: Figures, exp_id: str, exp: Experiment, light: set[str]) -> Any:
    if exp_id not in light:
        return exp.doc
    where = f"{page_path(exp_id)} embeds the whole result" if is_model_report(exp) else "the Models view"
    pointers = [p for e, p in fig.emitted if e == exp_id] + fig.raw_paths(exp_id)
    return excerpt(exp.doc, pointers, f"the site carries the records its numbers point at; "
                                      f"experiments/{exp_id}/result.json is the whole record ({where})")


GENERATED_DIRS = ("views", "data")  # written only by this renderer: a file there that the build lacks is left over


def leftovers(build: SiteBuild, out: Path) -> list[Path]:
    """Files in ``out``'s generated folders that the build no longer produces (a removed experiment or tab)."""
    return sorted(p for d in GENERATED_DIRS for p in (out / d).glob("*")
                  if p.is_file() and p.relative_to(out).as_posix() not in build.files)


def write_site(build: SiteBuild, out: Path) -> list[Path]:
    from npuready.atomic import write_bytes

    written = [write_bytes(out / rel, data) for rel, data in sorted(build.files.items())]
    for path in leftovers(build, out):
        path.unlink()
    return written


def stale_files(build: SiteBuild, out: Path) -> list[str]:
    """Files under ``out`` whose content differs from what the renderer produces now (missing counts as stale).
    Content, not bytes: the commit a result was produced at is masked (``volatile.py``), so rerunning an
    experiment that stores the same values leaves the site fresh."""
    stale = []
    for rel, data in sorted(build.files.items()):
        path = out / rel
        if not path.exists() or content_key(path.read_bytes()) != content_key(data):
            stale.append(str(path))
    return stale + [str(p) for p in leftovers(build, out)]
