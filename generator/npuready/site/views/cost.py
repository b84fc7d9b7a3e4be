"""cost-per-target, cost-vs-scalesim, cost-vs-vela: simulated cycles per target and against references."""
from __future__ import annotations

from typing import Any

from npuready.site.charts import grouped_bar_chart
from npuready.site.numbers import Figures
from npuready.site.source import Experiment
from npuready.site.tables import pivot_table, records_table
from npuready.site.views.picks import extreme, groups

MODEL_COLUMNS = ["model", "target", "array", "ours_cycles", "reference_cycles", "ratio", "ours_unmatched_cycles"]


def prepare_per_target(fig: Figures, exp: Experiment) -> dict[str, Any]:
    path = "/results/costs/rows"
    rows = fig.value(exp.id, path)
    per_model = groups(rows, "model")
    return {
        "per_model": {m: {"fast": extreme(rows, ix, "cycles"), "slow": extreme(rows, ix, "cycles", largest=True)}
                      for m, ix in per_model.items()},
        "cycles": pivot_table(fig, exp.id, path, rows, "model", "target", "cycles", title="cycles per inference"),
        "util": pivot_table(fig, exp.id, path, rows, "model", "target", "utilisation", title="MAC-array utilisation"),
        "energy": pivot_table(fig, exp.id, path, rows, "model", "target", "energy_uj", title="energy per inference (µJ)"),
        "chart": grouped_bar_chart(fig, exp.id, path, "cycles", "model", "target",
                                   title="simulated cycles per inference (log scale)", log=True),
        "rows": records_table(fig, exp.id, path, rows, title="all rows"),
    }


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
    return prepare_vs(fig, exp, layer_tables=False)
