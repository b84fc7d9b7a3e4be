"""cost-per-target, cost-vs-scalesim, cost-vs-vela: simulated cycles per target and against references.

cost-per-target's findings card says which target is most often the fastest and the slowest per model (naming up to
two models for which it is not) and the model with the widest spread between its fastest and slowest target; the
choices compare stored cycles, and only stored cycles are shown. The per-model fastest/slowest list opens the panel.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from npuready.site.charts import band_strip_chart, grouped_bar_chart
from npuready.site.numbers import Figures
from npuready.site.source import Experiment
from npuready.site.tables import pivot_table, records_table
from npuready.site.views.picks import extreme, groups, how_many

MODEL_COLUMNS = ["model", "target", "array", "ours_cycles", "reference_cycles", "ratio", "ours_unmatched_cycles"]


def prepare_per_target(fig: Figures, exp: Experiment) -> dict[str, Any]:
    path = "/results/costs/rows"
    rows = fig.value(exp.id, path)
    per_model = {m: {"fast": extreme(rows, ix, "cycles"), "slow": extreme(rows, ix, "cycles", largest=True)}
                 for m, ix in groups(rows, "model").items()}
    return {
        "per_model": per_model,
        "fast": _usual(rows, per_model, "fast"),
        "slow": _usual(rows, per_model, "slow"),
        "spread": _widest(rows, per_model),
        "cycles": pivot_table(fig, exp.id, path, rows, "model", "target", "cycles", title="cycles per inference"),
        "util": pivot_table(fig, exp.id, path, rows, "model", "target", "utilisation", title="MAC-array utilisation"),
        "energy": pivot_table(fig, exp.id, path, rows, "model", "target", "energy_uj",
                              title="energy per inference (µJ)"),
        "chart": grouped_bar_chart(fig, exp.id, path, "cycles", "model", "target",
                                   title="simulated cycles per inference (log scale)", log=True),
        "rows": records_table(fig, exp.id, path, rows, title="all rows"),
    }


def _usual(rows: list[dict[str, Any]], per_model: dict[str, dict[str, int]], which: str) -> dict[str, Any] | None:
    """The target that is most often the models' fastest (or slowest; first seen on a tie), a word for how many
    models share it, and the (model, row) pairs for which it is not."""
    picks = {m: ix[which] for m, ix in per_model.items()}
    if not picks:
        return None
    target, hits = Counter(rows[i]["target"] for i in picks.values()).most_common(1)[0]
    return {"at": next(i for i in picks.values() if rows[i]["target"] == target), "how": how_many(hits, len(picks)),
            "others": [(m, i) for m, i in picks.items() if rows[i]["target"] != target]}


def _widest(rows: list[dict[str, Any]], per_model: dict[str, dict[str, int]]) -> dict[str, Any] | None:
    """The model whose slowest target takes the most cycles relative to its fastest (selection only)."""
    def ratio(m: str) -> float:
        fast, slow = rows[per_model[m]["fast"]]["cycles"], rows[per_model[m]["slow"]]["cycles"]
        return slow / fast if fast > 0 else 0.0
    spread = [m for m, ix in per_model.items() if ix["fast"] != ix["slow"]]
    if not spread:
        return None
    m = max(spread, key=ratio)
    return {"model": m, **per_model[m]}


def prepare_vs(fig: Figures, exp: Experiment, layer_tables: bool = True) -> dict[str, Any]:
    """Per model × target totals and a ratio chart; per-layer tables unless ``layer_tables`` is off
    (then each model's layers stay one raw-JSON control away, which keeps the page light)."""
    path = "/results/comparison/models"
    models = fig.value(exp.id, path)
    x: dict[str, Any] = {
        "models": records_table(fig, exp.id, path, models, title="per model and target",
                                columns=MODEL_COLUMNS + ([] if layer_tables else ["layers"])),
        "chart": grouped_bar_chart(fig, exp.id, path, "ratio", "model", "target",
                                   title="ours / reference, total cycles (1.0 = identical)", value_title="ratio"),
        "layers": [(i, m, records_table(fig, exp.id, f"{path}/{i}/layers", m["layers"], title="layers"))
                   for i, m in enumerate(models) if m.get("layers")] if layer_tables else [],
    }
    return x


def prepare_vs_totals(fig: Figures, exp: Experiment) -> dict[str, Any]:
    """Totals table, and the per-layer error as one tick per layer against the stored per-layer goal (every total
    ratio is often exactly 1.0, so bars of totals would say nothing)."""
    x = prepare_vs(fig, exp, layer_tables=False)
    goal = fig.value(exp.id, "/results/summary/layer_goal")
    worst = fig.value(exp.id, "/results/summary/max_abs_layer_error")
    x["chart"] = band_strip_chart(fig, exp.id, "/results/comparison/models", "layers", "ratio", ["model", "target"],
                                  centre=1.0, band=goal,
                                  title="per-layer cycles, ours / SCALE-Sim: one tick per layer (1 = identical; "
                                        f"largest per-layer error {worst:g}, goal {goal:g})",
                                  x_title="ours / SCALE-Sim")
    return x
