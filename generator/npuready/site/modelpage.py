"""One model report as a page: the report JSON embedded once, the graph view and per-layer table rendered in the
browser by ``assets/modelview.js`` (dagre lays the graph out in a Blob-URL worker; its source is inlined as text so
the worker can be built from file://). Used for ``site/models/<id>.html`` and for ``npuready report``'s
standalone ``report.html`` (assets copied beside it)."""
from __future__ import annotations

import hashlib
from importlib import resources
from typing import Any, Mapping

import jinja2
from markupsafe import Markup

from npuready.site.embed import script_json

PAGE_ASSETS = ("site.css", "site.js", "drilldown.js", "modelview.js")
DAGRE = "dagre@3.1.3.min.js"


def asset(name: str) -> bytes:
    return resources.files("npuready.site").joinpath("assets", name).read_bytes()


def asset_versions(names: tuple[str, ...]) -> dict[str, str]:
    return {f"assets/{n}": hashlib.sha256(asset(n)).hexdigest()[:12] for n in names}


def render_model_page(env: jinja2.Environment, doc: Mapping[str, Any], *, exp_id: str, title: str, root: str,
                      prefix: str, back: str | None, source: str) -> str:
    """``root``: the JSON pointer of the report sections inside ``doc`` ("/results" for an experiment, "" for a
    bare report); ``prefix``: where ``assets/`` is relative to the page; ``back``: link to the Models index."""
    dagre = asset(DAGRE).decode("utf-8")
    if "</script" in dagre.lower():
        raise ValueError(f"{DAGRE} contains '</script' and cannot be inlined")
    return env.get_template("model_page.html.j2").render(
        exp_id=exp_id, title=title, root=root, prefix=prefix, back=back, source=source,
        payload=Markup(script_json(doc)), dagre=Markup(dagre), asset_version=asset_versions(PAGE_ASSETS))
