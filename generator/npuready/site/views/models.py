"""activation-swap and zoo-training: what changed in a model and how accuracy and cost moved."""
from __future__ import annotations

from typing import Any

from markupsafe import Markup

from npuready.site.charts import stages_chart
from npuready.site.numbers import Figures
from npuready.site.source import Experiment
from npuready.site.tables import Table, records_table

STAGES = [("accuracy_before", "before"), ("accuracy_after_swap", "after swap"),
          ("accuracy_after_recovery", "after recovery")]


def prepare_swap(fig: Figures, exp: Experiment) -> dict[str, Any]:
    acc = fig.value(exp.id, "/results/accuracy/rows")
    cost = fig.value(exp.id, "/results/cost/rows")
    paired = {i: i for i, r in enumerate(acc)
              if i < len(cost) and (cost[i]["model"], cost[i]["target"]) == (r["model"], r["target"])}
    body = []
    for i, r in enumerate(acc):
        a = f"/results/accuracy/rows/{i}"
        line = [Markup.escape(r["model"]), Markup.escape(r["target"])]
        line += [fig.at(exp.id, f"{a}/{field}") for field, _label in STAGES]
        if i in paired:
            c = f"/results/cost/rows/{i}"
            line += [fig.at(exp.id, f"{c}/before/cycles"), fig.at(exp.id, f"{c}/after/cycles"),
                     fig.at(exp.id, f"{c}/before/r005_findings"), fig.at(exp.id, f"{c}/after/r005_findings")]
        else:
            line += [Markup("")] * 4
        line.append(fig.raw(exp.id, f"{a}/swaps", label="swaps"))
        body.append(line)
    table = Table(title="accuracy (measured) and cost (simulated) around the swap", path="/results", rows=body,
                  columns=["model", "target", *[label for _f, label in STAGES], "cycles before", "cycles after",
                           "host activations (R005) before", "after", "what was swapped"])
    swapped = [r for r in acc if r.get("accuracy_after_swap") is not None]
    chart = (stages_chart(fig, exp.id, "/results/accuracy/rows", ["model", "target"], STAGES,
                          title="top-1 before → after swap → after recovery (rows with a swap)", y_title="top-1",
                          domain=(0, 1))
             if swapped else None)
    return {"paired": paired, "table": table, "chart": chart}


def prepare_zoo(fig: Figures, exp: Experiment) -> dict[str, Any]:
    x: dict[str, Any] = {}
    for name in ("classifiers", "detector", "training"):
        path = f"/results/{name}/rows"
        rows = fig.value(exp.id, path)
        x[name] = records_table(fig, exp.id, path, rows, title=name) if rows else None
    return x
