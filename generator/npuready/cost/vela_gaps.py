"""The open gaps of a cost-vs-Vela comparison: what lies outside the goal, listed, never hidden.

``gaps(models)`` takes the experiment's per (model, mirror) comparisons (``cost_vs_vela.compare`` rows
with ``model`` and ``target`` added) and returns plain data: the median total ratio per mirror and
over all pairs, every pair outside ``TOTAL_BAND``, per Vela operator ("Original Operator": Conv2D,
Softmax, Transpose ...) the summed cycles per mirror with those off by more than ``OP_TYPE_FACTOR``,
per (model, mirror, operator) the sums outside ``TOTAL_BAND``, and every Vela layer the mirror costs
at zero cycles. The thresholds are the goal issue 18 states; both sides are simulated estimates.
"""
from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any

TOTAL_BAND = (0.8, 1.2)  # every model's total within +-20% of Vela
MEDIAN_BAND = (0.9, 1.1)  # the median total within +-10%
OP_TYPE_FACTOR = 1.5  # no op type off by more than 1.5x in total cycles


def _ratio(ours: int, ref: int) -> float | None:
    return round(ours / ref, 6) if ref else None


def _outside(ratio: float | None, band: tuple[float, float]) -> bool:
    return ratio is None or not band[0] <= ratio <= band[1]


def _op_sums(models: list[dict]) -> dict[tuple, list[int]]:
    """(target, Vela operator) and (model, target, Vela operator) -> [ours, Vela, layers]."""
    sums: dict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0])
    for m in models:
        for layer in m["layers"]:
            for key in ((m["target"], layer["vela_operator"]), (m["model"], m["target"], layer["vela_operator"])):
                sums[key][0] += layer["ours_cycles"]
                sums[key][1] += layer["reference_cycles"]
                sums[key][2] += 1
    return sums


def gaps(models: list[dict]) -> dict[str, Any]:
    ratios = defaultdict(list)
    for m in models:
        ratios[m["target"]].append(m["ratio"])
    every = [r for rs in ratios.values() for r in rs]
    median = {t: round(statistics.median(rs), 6) for t, rs in sorted(ratios.items())}
    overall = round(statistics.median(every), 6) if every else None
    sums = _op_sums(models)
    op_types = [{"target": k[0], "vela_operator": k[1], "ours_cycles": v[0], "reference_cycles": v[1],
                 "layers": v[2], "ratio": _ratio(v[0], v[1])} for k, v in sorted(sums.items()) if len(k) == 2]
    lo, hi = 1 / OP_TYPE_FACTOR, OP_TYPE_FACTOR
    per_model_op = [{"model": k[0], "target": k[1], "vela_operator": k[2], "ours_cycles": v[0],
                     "reference_cycles": v[1], "layers": v[2], "ratio": _ratio(v[0], v[1])}
                    for k, v in sorted(sums.items()) if len(k) == 3 and _outside(_ratio(v[0], v[1]), TOTAL_BAND)]
    zero = [{"model": m["model"], "target": m["target"], "tensor": layer["tensor"],
             "vela_operator": layer["vela_operator"], "reference_cycles": layer["reference_cycles"]}
            for m in models for layer in m["layers"] if layer["reference_cycles"] and not layer["ours_cycles"]]
    totals_out = [{"model": m["model"], "target": m["target"], "ratio": m["ratio"]}
                  for m in models if _outside(m["ratio"], TOTAL_BAND)]
    # an operator both sides cost at zero cycles (Vela's CPU Passthrough, e.g. GatherV2) is not off by any factor
    op_out = [o for o in op_types if (o["ours_cycles"] or o["reference_cycles"]) and _outside(o["ratio"], (lo, hi))]
    return {
        "goal": f"every model's total within {TOTAL_BAND[0]}-{TOTAL_BAND[1]}x of Vela on both mirrors, the median "
                f"within {MEDIAN_BAND[0]}-{MEDIAN_BAND[1]}x, no Vela op type off by more than {OP_TYPE_FACTOR}x in "
                "total cycles, no layer costed at zero",
        "median_ratio": median, "median_ratio_all": overall,
        "median_goal_met": overall is not None and not _outside(overall, MEDIAN_BAND)
        and all(not _outside(r, MEDIAN_BAND) for r in median.values()),
        "totals_outside": totals_out, "totals_goal_met": not totals_out and bool(models),
        "op_types": op_types, "op_types_outside": op_out, "op_types_goal_met": not op_out,
        "model_op_types_outside": per_model_op,
        "zero_cost_layers": zero, "zero_cost_goal_met": not zero,
    }
