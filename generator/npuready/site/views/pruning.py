"""pruning: the share of MACs vs the share of simulated cycles a pruned model keeps, and its top-1 after recovery.

Sentences pick stored rows and compare stored values (which criterion recovers below uniform, whether
cycles kept exceed MACs kept, which variant keeps the largest excess of cycles over MACs, where cost-greedy
falls furthest below uniform); they show no number that is not a stored one. The findings card holds only the
finding sentences; the per-model and per-target table opens the panel.
"""
from __future__ import annotations

from typing import Any

from markupsafe import Markup

from npuready.site.charts import Point, scatter_chart
from npuready.site.numbers import Figures
from npuready.site.source import Experiment
from npuready.site.tables import Table, nowrap
from npuready.site.views.picks import how_many

COLUMNS = ["model", "target", "criterion", "planned for", "align", "greedy budget", "MACs", "MACs kept",
           "cycles", "cycles kept", "top-1 after cut", "top-1 after recovery", "channels"]
DASH = Markup("<span class='dim'>—</span>")


def model_names(exp: Experiment) -> list[str]:
    """Sections holding pruning rows that have a ``<model>_baseline_cost`` section beside them."""
    names = [n for n, s in exp.results.items()
             if isinstance(s.get("rows"), list) and isinstance(exp.results.get(f"{n}_baseline_cost"), dict)]
    if not names:
        raise KeyError("no results section with 'rows' and a '<model>_baseline_cost' section")
    return names


def _optional(fig: Figures, exp_id: str, path: str, pct: bool = False) -> Markup:
    return fig.num(exp_id, path, pct=pct) if fig.has(exp_id, path) else DASH


def prepare(fig: Figures, exp: Experiment) -> dict[str, Any]:
    targets = fig.value(exp.id, "/results/setup/targets")
    models, body, points = [], [], []
    pruned = diverged = greedy = below = 0
    # headline examples: per model, the variant (on a target it was planned for, or uniform) keeping the largest
    # excess of cycles over MACs; and the planned-for case where cost-greedy falls furthest below uniform
    gaps: list[tuple[float, str, int, str]] = []
    worst: tuple[float, str, int, int, str] | None = None
    untouched: list[tuple[str, int]] = []
    exceptions: list[tuple[str, int, str]] = []  # pruned, yet keeps no larger share of cycles than of MACs
    for name in model_names(exp):
        base = f"/results/{name}"
        rows = fig.value(exp.id, f"{base}/rows")
        uniform = next((i for i, r in enumerate(rows) if r["criterion"] == "uniform"), None)
        per_target = []
        for t in targets:
            picked = [i for i, r in enumerate(rows) if r.get("planned_for") in (None, t)]
            worse = [i for i in picked if rows[i]["criterion"] == "cost_greedy" and uniform is not None
                     and rows[i]["accuracy_after_recovery"] < rows[uniform]["accuracy_after_recovery"]]
            greedy += sum(1 for i in picked if rows[i]["criterion"] == "cost_greedy" and uniform is not None)
            below += len(worse)
            for i in worse:
                drop = rows[uniform]["accuracy_after_recovery"] - rows[i]["accuracy_after_recovery"]
                if worst is None or drop > worst[0]:
                    worst = (drop, name, i, uniform, t)
            for i in picked:
                k = rows[i]["per_target"][t]
                if k["macs_fraction"] < 1 and k["cycles_fraction"] > k["macs_fraction"]:
                    gap = k["cycles_fraction"] - k["macs_fraction"]
                    if not any(g[1] == name and g[0] >= gap for g in gaps):
                        gaps = [g for g in gaps if g[1] != name] + [(gap, name, i, t)]
            per_target.append({"name": t, "rows": picked, "below": worse})
        for i, r in enumerate(rows):
            kept = [r["per_target"][t] for t in targets]
            if all(k["macs_fraction"] >= 1 for k in kept):
                untouched.append((name, i))
            for t, k in zip(targets, kept):
                if k["macs_fraction"] < 1:
                    pruned += 1
                    diverged += k["cycles_fraction"] > k["macs_fraction"]
                    if k["cycles_fraction"] <= k["macs_fraction"]:
                        exceptions.append((name, i, t))
        models.append({"name": name, "path": base, "targets": per_target})
        body += _table_rows(fig, exp.id, name, rows, targets)
        points += [Point(x=f"{base}/rows/{i}/per_target/{t}/macs_fraction",
                         y=f"{base}/rows/{i}/per_target/{t}/cycles_fraction",
                         labels={"criterion": r["criterion"], "model @ target": f"{name} @ {t}",
                                 "planned for": str(r.get("planned_for") or "any target")},
                         extra={"top-1 after recovery": f"{base}/rows/{i}/accuracy_after_recovery"})
                   for i, r in enumerate(rows) for t in targets]
    chart = scatter_chart(fig, exp.id, "/results", points, color="criterion", shape="model @ target",
                          title="share of simulated cycles kept vs share of MACs kept (dashed line: equal shares)",
                          x_title="MACs kept", y_title="cycles kept", diagonal=True, percent=True)
    table = nowrap(Table(title="every pruned variant on every target", path="/results", columns=COLUMNS, rows=body),
                   "target", "planned for")
    gaps.sort(key=lambda g: -g[0])
    return {"models": models, "table": table, "chart": chart, "untouched": untouched, "exceptions": exceptions,
            "telling": [{"model": n, "path": f"/results/{n}/rows/{i}", "target": t} for _g, n, i, t in gaps[:2]],
            "example": None if worst is None else {"model": worst[1],
                                                   "greedy": f"/results/{worst[1]}/rows/{worst[2]}",
                                                   "uniform": f"/results/{worst[1]}/rows/{worst[3]}",
                                                   "target": worst[4]},
            "diverge": how_many(diverged, pruned) if pruned else None,
            "greedy_below": how_many(below, greedy) if greedy else None}


def _table_rows(fig: Figures, exp_id: str, name: str, rows: list[dict[str, Any]],
                targets: list[str]) -> list[list[Markup]]:
    base = f"/results/{name}"
    out = []
    for t in targets:
        cost = f"{base}_baseline_cost/{t}"
        out.append([Markup.escape(name), Markup.escape(t), Markup("<i>unpruned</i>"), DASH, DASH, DASH,
                    fig.num(exp_id, f"{cost}/macs"), DASH, fig.num(exp_id, f"{cost}/cycles"), DASH, DASH,
                    fig.num(exp_id, f"{base}/accuracy_unpruned"), fig.raw(exp_id, f"{base}/groups", label="groups")])
        for i, r in enumerate(rows):
            at = f"{base}/rows/{i}"
            k = f"{at}/per_target/{t}"
            out.append([Markup.escape(name), Markup.escape(t), Markup.escape(r["criterion"]),
                        Markup.escape(r["planned_for"]) if r.get("planned_for") else DASH,
                        _optional(fig, exp_id, f"{at}/align"),
                        _optional(fig, exp_id, f"{at}/budget_cycles_fraction", pct=True),
                        fig.num(exp_id, f"{k}/macs"), fig.num(exp_id, f"{k}/macs_fraction", pct=True),
                        fig.num(exp_id, f"{k}/cycles"), fig.num(exp_id, f"{k}/cycles_fraction", pct=True),
                        fig.num(exp_id, f"{at}/accuracy_after_cut"), fig.num(exp_id, f"{at}/accuracy_after_recovery"),
                        fig.raw(exp_id, f"{at}/channels", label="groups") if "channels" in r else DASH])
    return out
