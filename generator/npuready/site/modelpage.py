"""One model report as a page: the report JSON embedded once, the graph view and per-layer table rendered in the
browser by ``assets/modelview.js`` (dagre lays the graph out in a Blob-URL worker; its source is inlined as text so
the worker can be built from file://). Used for ``site/models/<id>.html`` (assets linked) and for ``npuready
report``'s ``report.html`` (``inline=True``: styles and scripts inlined too, so the one file works alone; each
inline script is allowed by its SHA-256 in the page's Content-Security-Policy, not by 'unsafe-inline')."""
from __future__ import annotations

import base64
import hashlib
from importlib import resources
from typing import Any, Mapping

import jinja2
from markupsafe import Markup

from npuready.site.embed import script_json

PAGE_ASSETS = ("site.css", "site.js", "drilldown.js", "layertable.js", "nodepanel.js", "graphtools.js", "graphnav.js",
               "heatscale.js", "reportdoc.js", "sensitivity.js", "modelview.js")
PAGE_SCRIPTS = tuple(n for n in PAGE_ASSETS if n.endswith(".js"))  # in the order the page runs them
DAGRE = "dagre@3.1.3.min.js"


def asset(name: str) -> bytes:
    return resources.files("npuready.site").joinpath("assets", name).read_bytes()


def asset_versions(names: tuple[str, ...]) -> dict[str, str]:
    return {f"assets/{n}": hashlib.sha256(asset(n)).hexdigest()[:12] for n in names}


def inline_text(name: str) -> str:
    """An asset's text for an inline ``<script>``/``<style>``: refused if it could end its element early."""
    text = asset(name).decode("utf-8")
    if "</script" in text.lower() or "</style" in text.lower():
        raise ValueError(f"{name} contains '</script' or '</style' and cannot be inlined")
    return text


def csp_hash(script: str) -> str:
    """The CSP source expression allowing exactly this inline script."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii") + "'"


def render_model_page(env: jinja2.Environment, doc: Mapping[str, Any], *, exp_id: str, title: str, root: str,
                      prefix: str, back: str | None, source: str, inline: bool = False, rules: str = "",
                      sensitivity: tuple[str, str, Mapping[str, Any]] | None = None) -> str:
    """``root``: the JSON pointer of the report sections inside ``doc`` ("/results" for an experiment, "" for a
    bare report); ``prefix``: where ``assets/`` is relative to the page; ``back``: link to the Models index;
    ``inline``: styles and scripts inside the page (no ``assets/``); ``rules``: the link a rule id is appended to
    for its documentation page ("" when the page stands alone: the finding's own why and fix are shown);
    ``sensitivity``: (experiment id, JSON pointer of its section for this model, the record to embed) for the
    graph view's sensitivity overlay (``assets/sensitivity.js``), or None."""
    scripts = [Markup(inline_text(n)) for n in PAGE_SCRIPTS] if inline else []
    sections = doc.get("results", {}) if root == "/results" else doc
    summarised = sections.get("summarised", {}).get("note") if isinstance(sections, Mapping) else None
    return env.get_template("model_page.html.j2").render(
        exp_id=exp_id, title=title, root=root, prefix=prefix, back=back, source=source, rules=rules,
        summarised=summarised,
        page_scripts=PAGE_SCRIPTS,
        payload=Markup(script_json(doc)), dagre=Markup(inline_text(DAGRE)), asset_version=asset_versions(PAGE_ASSETS),
        sens_exp=sensitivity[0] if sensitivity else "", sens_path=sensitivity[1] if sensitivity else "",
        sens_payload=Markup(script_json(sensitivity[2])) if sensitivity else "",
        inline=inline, css=Markup(inline_text("site.css")) if inline else "", scripts=scripts,
        script_hashes=Markup(" ".join(csp_hash(s) for s in scripts)))
