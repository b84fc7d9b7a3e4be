"""intake: per model and target, what diagnose found, what was prescribed, and the effect (what-if or applied).

The findings card holds the summary counts and at most two picked results, chosen by comparing stored values
(no number is computed for display): the applied model whose simulated cycles changed most from its first to
its last stage, and the what-if of the most fragmented report (most NPU segments, then most cycles) among the
reports not applied. The per-model-and-target entries open the panel.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from markupsafe import Markup

from npuready.site.numbers import Figures
from npuready.site.source import Experiment
from npuready.site.tables import Table, nowrap, records_table

DIAGNOSIS_COLUMNS = ["model", "target", "verdict", "npu_segments", "lint_errors", "error_rules", "cycles", "macs",
                     "top_layer_op", "top_layer_share", "risks_high", "risk_kinds"]
PRESCRIPTION_COLUMNS = ["order", "id", "recommended", "automatic", "basis", "title", "expected"]
SWAP_COLUMNS = ["model", "target", "where", "old", "new"]
ACCURACY = [("float_accuracy", "float top-1"), ("fake_quant_accuracy", "fake-quant top-1"),
            ("integer_accuracy", "integer top-1")]
COST = [("cycles", "cycles"), ("lint_errors", "lint errors")]

D, P = "/results/diagnoses/rows", "/results/prescriptions/rows"
A, C = "/results/applied_accuracy/rows", "/results/applied_cost/rows"


def _of(rows: list[dict[str, Any]], model: str, target: str) -> list[int]:
    return [i for i, r in enumerate(rows) if (r["model"], r["target"]) == (model, target)]


def prepare(fig: Figures, exp: Experiment) -> dict[str, Any]:
    diagnoses = fig.value(exp.id, D)
    actions = fig.value(exp.id, P)
    acc, cost = fig.rows(exp.id, A), fig.rows(exp.id, C)
    reports = []
    for i, d in enumerate(diagnoses):
        mine = sorted(_of(actions, d["model"], d["target"]), key=lambda j: actions[j]["order"])
        # the what-if: the first recommended prescription whose expected effect was simulated on a rewritten copy
        lead = next((j for j in mine if actions[j]["basis"] == "simulated" and actions[j]["recommended"]), None)
        a, c = _of(acc, d["model"], d["target"]), _of(cost, d["model"], d["target"])
        reports.append({"i": i, "actions": mine, "lead": lead,
                        "acc": (a[0], a[-1]) if len(a) > 1 else None, "cost": (c[0], c[-1]) if len(c) > 1 else None,
                        "prescriptions": records_table(fig, exp.id, P, actions, columns=PRESCRIPTION_COLUMNS,
                                                       indices=mine, title=f"{d['model']} on {d['target']}")
                        if mine else None})
    swaps = fig.rows(exp.id, "/results/applied_accuracy/swaps")
    applied = [r for r in reports if r["cost"]]
    applied_pick = max(applied, key=lambda r: abs(cost[r["cost"][0]]["cycles"] - cost[r["cost"][1]]["cycles"])
                       if all(isinstance(cost[k]["cycles"], (int, float)) for k in r["cost"]) else -1, default=None)
    whatifs = [r for r in reports if r["lead"] is not None]
    rest = [r for r in whatifs if not r["cost"]]
    whatif_pick = max(rest or whatifs,
                      key=lambda r: (diagnoses[r["i"]]["npu_segments"] or 0, diagnoses[r["i"]]["cycles"] or 0),
                      default=None)
    return {
        "reports": reports,
        "applied_pick": applied_pick,
        "whatif_pick": whatif_pick,
        "diagnoses": _diagnoses(fig, exp.id, diagnoses),
        "applied": _applied(fig, exp.id, acc, cost) if acc or cost else None,
        "swaps": records_table(fig, exp.id, "/results/applied_accuracy/swaps", swaps, columns=SWAP_COLUMNS,
                               title="activations swapped") if swaps else None,
    }


def _diagnoses(fig: Figures, exp_id: str, rows: list[dict[str, Any]]) -> Table:
    table = records_table(fig, exp_id, D, rows, columns=DIAGNOSIS_COLUMNS,
                          title="diagnose: one row per model and target")
    table = nowrap(table, "target", "verdict", "error_rules", "risk_kinds")
    return replace(table, columns=[c.replace("_", " ") for c in table.columns])


def _applied(fig: Figures, exp_id: str, acc: list[dict[str, Any]], cost: list[dict[str, Any]]) -> Table:
    """Accuracy rows (measured) beside the cost rows (simulated) of the same model, target and stage."""
    where = {(r["model"], r["target"], r["stage"]): k for k, r in enumerate(cost)}
    body = []
    for i, r in enumerate(acc):
        line = [Markup.escape(r["model"]), Markup.escape(r["target"]), Markup.escape(r["stage"])]
        line += [fig.at(exp_id, f"{A}/{i}/{key}") for key, _label in ACCURACY]
        k = where.pop((r["model"], r["target"], r["stage"]), None)
        line += [fig.at(exp_id, f"{C}/{k}/{key}") if k is not None else Markup("") for key, _label in COST]
        line += [fig.at(exp_id, f"{A}/{i}/images"), fig.raw(exp_id, f"{A}/{i}/settings", label="settings")]
        body.append(line)
    for k in where.values():  # cost rows without an accuracy row
        r = cost[k]
        line = [Markup.escape(r["model"]), Markup.escape(r["target"]), Markup.escape(r["stage"]),
                *[Markup("")] * len(ACCURACY)]
        body.append(line + [fig.at(exp_id, f"{C}/{k}/{key}") for key, _label in COST] + [Markup(""), Markup("")])
    return nowrap(Table(title="apply (zoo models): each stage's accuracy (measured) and cost (simulated)",
                        path="/results",
                        columns=["model", "target", "stage", *[label for _k, label in ACCURACY],
                                 *[label for _k, label in COST], "images", "settings"], rows=body), "target", "stage")
