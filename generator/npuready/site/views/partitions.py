"""partitions: CPU head / NPU body / CPU tail per model and target, recomposition, NNAPI checker comparison.

The findings card names, on the first target of the example rows, which example models place as one NPU body,
which stay off the NPU and which fragment (with the plan of the most fragmented: most NPU segments, then most
bytes CPU↔NPU), the real model's most fragmented plan, and whether recomposition matched; choices compare stored
values only. The plan per model (first row of each) opens the panel.
"""
from __future__ import annotations

from typing import Any

from npuready.site.numbers import Figures
from npuready.site.source import Experiment
from npuready.site.tables import records_table
from npuready.site.views.picks import groups

PLAN_COLUMNS = ["model", "target", "edges", "verdict", "npu_segments", "npu_mac_share", "transfer_bytes_per_inference",
                "cpu_computations", "total_macs", "segments", "splitters", "missing_cpu_code"]


def prepare(fig: Figures, exp: Experiment) -> dict[str, Any]:
    examples = fig.value(exp.id, "/results/examples/rows")
    real = fig.value(exp.id, "/results/real_model/rows")
    nnapi = fig.value(exp.id, "/results/nnapi_comparison/models")
    recompose = fig.value(exp.id, "/results/recomposition/rows")
    first_on: dict[str, int] = {}  # per model, its first example row on the first example row's target
    for i, r in enumerate(examples):
        if r["target"] == examples[0]["target"]:
            first_on.setdefault(r["model"], i)
    by_verdict = {v: [i for i in first_on.values() if examples[i]["verdict"] == v]
                  for v in ("one-body", "no-npu", "fragmented")}
    return {
        "on": 0 if examples else None,
        "one_body": by_verdict["one-body"],
        "no_npu": by_verdict["no-npu"],
        "fragmented": by_verdict["fragmented"],
        "most_fragmented": _most_fragmented(examples, by_verdict["fragmented"]),
        "real_pick": _most_fragmented(real, list(range(len(real)))),
        "first_per_model": {m: ix[0] for m, ix in groups(examples, "model").items()},
        "examples": records_table(fig, exp.id, "/results/examples/rows", examples, columns=PLAN_COLUMNS,
                                  title="example models"),
        "real": records_table(fig, exp.id, "/results/real_model/rows", real, columns=PLAN_COLUMNS,
                              title="real model from the onnx wheel"),
        "nnapi": records_table(fig, exp.id, "/results/nnapi_comparison/models", nnapi,
                               columns=["model", "npuready", "ort", "ort_optimized", "explanation", "node_differences"],
                               title="npuready vs onnxruntime's NNAPI usability checker"),
        "recompose": records_table(fig, exp.id, "/results/recomposition/rows", recompose,
                                   columns=["model", "target", "edges", "max_abs_diff", "parts"],
                                   title="head → body → tail recomposition vs the original model"),
    }


def _most_fragmented(rows: list[dict[str, Any]], indices: list[int]) -> int | None:
    """The row (among ``indices``) with the most NPU segments, then the most bytes CPU↔NPU (first on a tie)."""
    if not indices:
        return None
    return max(indices, key=lambda i: (rows[i]["npu_segments"] or 0, rows[i]["transfer_bytes_per_inference"] or 0))
