"""Experiment `probes`: the operator probe table on onnxruntime (a CPU baseline, not NPU support)."""
from __future__ import annotations

from typing import Any

from npuready.experiments.context import RunContext


def run(ctx: RunContext) -> dict[str, Any]:
    import onnx
    import onnxruntime

    from npuready.probes import run_all
    from npuready.probes.run import table
    from npuready.targets import load_target, target_names

    ctx.tool("onnxruntime", onnxruntime.__version__)
    ctx.tool("onnx", onnx.__version__)
    doc = table(run_all(progress=False))
    probed = {op for row in doc["probes"] if row["accepted"] for op in row["op_types"]}
    allow = []
    for name in target_names():
        t = load_target(name)
        allowed = sorted(op for op, mode in t.activations.items() if mode != "host")
        allow.append({"target": name, "allowed_activations": allowed,
                      "allowed_without_passing_probe": sorted(set(allowed) - probed)})
    return {
        "probes": {"evidence": "measured", "basis": doc["basis"], "runtime": doc["runtime"],
                   "summary": doc["summary"], "rows": doc["probes"]},
        "allowlists": {"evidence": "measured",
                       "note": "every activation a target allows must have a passing onnxruntime probe "
                               "(the allowlist is decided by measurement)",
                       "targets": allow},
    }
