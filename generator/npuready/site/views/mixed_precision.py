"""mixed-precision: the sensitivity view per model — layers ranked by what keeping each float alone recovers,
that gain against the cycles it adds on the search target, the set ``--keep-float auto`` chose highlighted, and
the parity ladder of each build with the layers it kept float.

Every figure is a stored one (``Figures.num``); which rows are "chosen" is read from the stored kept list, and the
order is the stored ranking. Nothing is recomputed.
"""
from __future__ import annotations

from typing import Any

from markupsafe import Markup

from npuready.site import pointer
from npuready.site.charts import Point, scatter_chart
from npuready.site.numbers import Figures
from npuready.site.source import Experiment
from npuready.site.tables import Table, nowrap

BUILDS = {"int8": "all INT8", "auto": "--keep-float auto", "first_last": "first and last layer float"}
CHOSEN = Markup("<b class='kept-float'>kept float</b>")
DASH = Markup("<span class='dim'>—</span>")
NONE = Markup("<span class='dim'>none</span>")


def model_names(exp: Experiment) -> list[str]:
    names = [n for n, s in exp.results.items()
             if isinstance(s, dict) and isinstance(s.get("sensitivity"), dict) and isinstance(s.get("builds"), dict)]
    if not names:
        raise KeyError("no results section with 'sensitivity' and 'builds'")
    return names


def _names(fig: Figures, exp_id: str, path: str, names: list[str], shown: int = 3) -> Markup:
    """Layer names, the first ``shown`` of a longer list and a control opening all of them."""
    if not names:
        return NONE
    head = Markup(", ").join(Markup("<code>{}</code>").format(n) for n in names[:shown])
    return head if len(names) <= shown else Markup("{} … {}").format(head, fig.raw(exp_id, path,
                                                                              label=f"all {len(names)}"))


def _cost_index(costs: list[dict[str, Any]], target: str) -> int | None:
    return next((i for i, c in enumerate(costs) if c.get("target") == target), None)


def _ladder(fig: Figures, exp_id: str, base: str, search_target: str) -> Table:
    rows = []
    for b, label in BUILDS.items():
        at = f"{base}/builds/{b}"
        if not fig.has(exp_id, at):
            continue
        build = fig.value(exp_id, at)
        k = _cost_index(build["costs"], search_target)
        nodes = build.get("kept_float_nodes")
        rows.append([Markup("<b>{}</b>").format(label), fig.num(exp_id, f"{at}/kept_count"),
                     fig.num(exp_id, f"{at}/top1_agreement_fake_quant_vs_float"),
                     fig.num(exp_id, f"{at}/top1_agreement_integer_vs_float"),
                     fig.num(exp_id, f"{at}/float_ops"),
                     DASH if k is None else fig.num(exp_id, f"{at}/costs/{k}/extra_cycles"),
                     _names(fig, exp_id, f"{at}/kept", build["kept"]),
                     fig.raw(exp_id, f"{at}/kept_float_nodes", label=f"{len(nodes)} nodes") if nodes else
                     NONE if nodes is not None else DASH])
    columns = ["build", "layers kept float", "fake-quant vs float", "integer vs float", "Float islands",
               f"cycles added on {search_target}", "layers that stayed float", "nodes the integer rung ran float"]
    return nowrap(Table(title="parity ladder of each build (Fashion-MNIST test images): which layers stayed float",
                        path=f"{base}/builds", columns=columns, rows=rows), "build")


def _ranked(fig: Figures, exp_id: str, base: str, rows: list[dict[str, Any]], chosen: set[str],
            targets: list[str]) -> Table:
    body = []
    for i, r in enumerate(rows):
        at = f"{base}/sensitivity/rows/{i}"
        cells = [CHOSEN if r["name"] in chosen else Markup(""), Markup.escape(r["name"]),
                 Markup.escape(r["op_type"]), fig.num(exp_id, f"{at}/gain_float"),
                 fig.num(exp_id, f"{at}/gain_output"),
                 fig.num(exp_id, f"{at}/sqnr_db") if r.get("sqnr_db") is not None else DASH]
        for t in targets:
            k = _cost_index(r.get("costs", []), t)
            cells.append(DASH if k is None else fig.num(exp_id, f"{at}/costs/{k}/extra_cycles"))
        body.append(cells)
    columns = ["chosen", "layer", "op", "gain, kept float alone", "gain, output unrounded", "SQNR (dB)",
               *[f"cycles added on {t}" for t in targets]]
    return nowrap(Table(title="layers ranked by the metric keeping each float alone recovers (held-out images)",
                        path=f"{base}/sensitivity/rows", columns=columns, rows=body), "chosen", "op")


def prepare(fig: Figures, exp: Experiment) -> dict[str, Any]:
    out = []
    for name in model_names(exp):
        base = pointer.join("/results", name)
        sec = exp.results[name]
        target = sec["search_target"]
        rows = sec["sensitivity"]["rows"]
        chosen = {k["name"] for k in sec["keep_float"]["kept"]}
        targets = [c["target"] for c in (rows[0].get("costs", []) if rows else [])]
        points = []
        for i, r in enumerate(rows):
            k = _cost_index(r.get("costs", []), target)
            if k is None:
                continue
            at = f"{base}/sensitivity/rows/{i}"
            points.append(Point(x=f"{at}/costs/{k}/extra_cycles", y=f"{at}/gain_float",
                                labels={"choice": "kept float by auto" if r["name"] in chosen else "left INT8",
                                        "op": r["op_type"], "layer": r["name"]},
                                extra={"SQNR (dB)": f"{at}/sqnr_db"} if r.get("sqnr_db") is not None else {}))
        chart = scatter_chart(fig, exp.id, f"{base}/sensitivity/rows", points, color="choice", shape="op",
                              title=f"{name}: metric gain of each layer kept float alone vs the cycles it adds on "
                                    f"{target} (simulated)",
                              x_title=f"cycles added on {target}", y_title="gain (top-1 agreement)") \
            if points else None
        auto = f"{base}/builds/auto"
        k = _cost_index(sec["builds"]["auto"]["costs"], target)
        out.append({"name": name, "path": base, "target": target, "chart": chart,
                    "ladder": _ladder(fig, exp.id, base, target),
                    "ranked": _ranked(fig, exp.id, base, rows, chosen, targets),
                    "auto_cycles": None if k is None else f"{auto}/costs/{k}/extra_cycles",
                    "has_search": "search" in sec})
    return {"models": out}
