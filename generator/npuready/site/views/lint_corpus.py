"""lint-corpus: which NPU-safety rules fire on the zoo and on the onnx wheel's real models."""
from __future__ import annotations

from typing import Any

from npuready.site import pointer
from npuready.site.charts import dict_bar_chart
from npuready.site.numbers import Figures
from npuready.site.source import Experiment
from npuready.site.tables import records_table

COLUMNS = ["model", "loaded", "blocked", "errors", "warnings", "rules"]


def prepare(fig: Figures, exp: Experiment) -> dict[str, Any]:
    x: dict[str, Any] = {"charts": [], "flagged": {}, "all": {}}
    for name in ("corpus", "zoo"):
        base = pointer.join("/results", name)
        models = fig.value(exp.id, base + "/models")
        fig.value(exp.id, base + "/summary/models")
        per_rule = fig.value(exp.id, base + "/summary/models_per_rule")
        if isinstance(per_rule, dict) and len(per_rule) >= 2:
            x["charts"].append(dict_bar_chart(fig, exp.id, base + "/summary/models_per_rule", key="rule",
                                              value="models", title=f"{name}: models per rule", count=True))
        flagged = [i for i, m in enumerate(models) if m.get("rules") or m.get("blocked") or not m.get("loaded", True)]
        x["flagged"][name] = (records_table(fig, exp.id, base + "/models", models, columns=COLUMNS, indices=flagged)
                              if flagged else None)
        if models:
            x["all"][name] = records_table(fig, exp.id, base + "/models", models, title=f"{name} models",
                                           columns=COLUMNS)
    return x
