"""norm-fusion: scale and mean/std folded into the first layer; output difference on real photos."""
from __future__ import annotations

from typing import Any

from npuready.site.numbers import Figures
from npuready.site.source import Experiment
from npuready.site.tables import records_table

COLUMNS = ["model", "strategy", "input", "input_dtype", "images", "max_abs_diff", "mean_max_abs_diff",
           "max_abs_output", "top1_agree", "within_tolerance", "convs"]


def prepare(fig: Figures, exp: Experiment) -> dict[str, Any]:
    photos = fig.value(exp.id, "/results/photos/rows")
    zoo = fig.value(exp.id, "/results/zoo/rows")
    return {
        "photos": records_table(fig, exp.id, "/results/photos/rows", photos, columns=COLUMNS, title="example models"),
        "zoo": records_table(fig, exp.id, "/results/zoo/rows", zoo, columns=COLUMNS, title="zoo models")
        if zoo else None,
    }
