"""probes: which operator probe graphs onnxruntime accepts (a CPU baseline, not NPU support)."""
from __future__ import annotations

from typing import Any

from npuready.site.numbers import Figures
from npuready.site.source import Experiment
from npuready.site.tables import records_table

COLUMNS = ["name", "group", "op_types", "description", "opset", "accepted", "stage", "error", "input_shapes",
           "output_shapes"]


def prepare(fig: Figures, exp: Experiment) -> dict[str, Any]:
    rows = fig.value(exp.id, "/results/probes/rows")
    targets = fig.value(exp.id, "/results/allowlists/targets")
    return {
        "failed": [i for i, r in enumerate(rows) if not r.get("accepted")],
        "probes": records_table(fig, exp.id, "/results/probes/rows", rows, columns=COLUMNS, title="probes"),
        "allow": records_table(fig, exp.id, "/results/allowlists/targets", targets,
                               columns=["target", "allowed_without_passing_probe", "allowed_activations"],
                               title="activation allowlists per target"),
    }
