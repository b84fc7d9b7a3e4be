"""ptq-methods, parity-ladder, bitexact-litert: INT8 accuracy per recipe, float → fake-quant → integer, LiteRT."""
from __future__ import annotations

from typing import Any

from markupsafe import Markup

from npuready.site import pointer
from npuready.site.charts import grouped_bar_chart, series_chart
from npuready.site.numbers import Figures
from npuready.site.source import Experiment
from npuready.site.tables import Table, mapping_table, pivot_table, records_table
from npuready.site.views.picks import extreme, groups

LADDER_COLUMNS = [("accuracy_float", "float"), ("accuracy_fake_quant", "fake-quant"), ("accuracy_integer", "integer"),
                  ("top1_agreement_integer_vs_fake_quant", "top-1 agree int↔fq"),
                  ("tensors_with_mismatch", "tensors differing"), ("tensors", "tensors"),
                  ("output_code_mismatch", "output codes differing")]
TENSOR_COLUMNS = ["op", "kind", "tensor", "rounding", "elements", "mismatch_propagated", "mismatch_local",
                  "max_abs_propagated", "max_abs_local"]


def _model_sections(exp: Experiment) -> list[str]:
    return [name for name, sec in exp.results.items() if isinstance(sec.get("methods"), dict)]


def prepare_ladder(fig: Figures, exp: Experiment) -> dict[str, Any]:
    pairs = []
    for model in _model_sections(exp):
        for method in fig.value(exp.id, pointer.join("/results", model, "methods")):
            pairs.append((model, method, pointer.join("/results", model, "methods", method)))
    if not pairs:
        raise KeyError("no results section with a 'methods' object")
    body = []
    for model, method, base in pairs:
        cells = [Markup.escape(model), Markup.escape(method)]
        for key, _label in LADDER_COLUMNS:
            cells.append(fig.num(exp.id, f"{base}/{key}", pct=key == "output_code_mismatch"))
        first = fig.value(exp.id, f"{base}/first_divergence")
        cells.append(Markup.escape(first) if first else Markup("<span class='dim'>none</span>"))
        body.append(cells)
    ladder = Table(title="float → fake-quant → integer", path="/results", rows=body,
                   columns=["model", "method", *[label for _k, label in LADDER_COLUMNS], "first op > 1 LSB"])
    charts, tensors = [], []
    for model, method, base in pairs:
        rows = fig.value(exp.id, f"{base}/per_tensor")
        tensors.append((model, method, base,
                        records_table(fig, exp.id, f"{base}/per_tensor", rows, columns=TENSOR_COLUMNS)))
        if rows and all(model != c[0] for c in charts):
            charts.append((model, series_chart(fig, exp.id, f"{base}/per_tensor", "op",
                                               ["mismatch_propagated", "mismatch_local"],
                                               title=f"{model} ({method}): int8 code mismatch per tensor, "
                                                     "integer vs fake-quant",
                                               y_title="share of codes differing", x_title="tensor (graph order)")))
    return {"pairs": pairs, "ladder": ladder, "charts": [c for _m, c in charts], "tensors": tensors}


def prepare_bitexact(fig: Figures, exp: Experiment) -> dict[str, Any]:
    models = [name for name, sec in exp.results.items() if "tensors_compared" in sec]
    if not models:
        raise KeyError("no results section with 'tensors_compared'")
    out = []
    for model in models:
        base = pointer.join("/results", model)
        per_kind = fig.value(exp.id, base + "/per_kind")
        per_op = fig.value(exp.id, base + "/per_op")
        out.append((model, base,
                    mapping_table(fig, exp.id, base + "/per_kind", per_kind, "op kind", title="per op kind"),
                    records_table(fig, exp.id, base + "/per_op", per_op, title="per op") if per_op else None))
    return {"models": out}


def prepare_ptq(fig: Figures, exp: Experiment) -> dict[str, Any]:
    path = "/results/accuracy/rows"
    rows = fig.value(exp.id, path)
    per_model = groups(rows, "model")
    failures = fig.rows(exp.id, "/results/failures/rows")
    methods = fig.rows(exp.id, "/results/methods/rows")
    return {
        "per_model": {m: {"first": ix[0], "best": extreme(rows, ix, "int8_accuracy", largest=True),
                          "worst": extreme(rows, ix, "int8_accuracy")} for m, ix in per_model.items()},
        "accuracy": pivot_table(fig, exp.id, path, rows, "method", "model", "int8_accuracy",
                                title="INT8 top-1 (fake-quant)"),
        "drop": pivot_table(fig, exp.id, path, rows, "method", "model", "drop_pp",
                            title="drop vs float (percentage points)"),
        "chart": grouped_bar_chart(fig, exp.id, path, "drop_pp", "method", "model",
                                   title="INT8 top-1 drop vs float per recipe "
                                         "(percentage points; below zero: INT8 was better)",
                                   value_title="drop (pp)"),
        "failures": records_table(fig, exp.id, "/results/failures/rows", failures, title="recipes that failed")
        if failures else None,
        "methods": records_table(fig, exp.id, "/results/methods/rows", methods, title="recipes") if methods else None,
    }
