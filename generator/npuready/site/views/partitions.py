"""partitions: CPU head / NPU body / CPU tail per model and target, recomposition, NNAPI checker comparison."""
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
    return {
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
