"""The report checks that every LayerNormalization sits where the target's policy says it runs."""
from __future__ import annotations

import pytest

from npuready.paths import zoo_dir
from npuready.report import ReportRequest, build_report


@pytest.mark.parametrize("target, mode, device", [("edge-10", "native", "npu"), ("ethos-u55-128", "lowered", "npu"),
                                                   ("edge-10-nolut", "host", "cpu")])
def test_vit_layer_norms_follow_the_target_policy(target, mode, device):
    result = build_report(ReportRequest(model=str(zoo_dir() / "vit_tiny.onnx"), targets=(target,),
                                        stages=("lint", "partition")))
    check = result["checks"]["targets"][target]["norm_placement"]
    assert check["ok"] and check["not_as_declared"] == [] and check["layer_norms"] > 0
    placements = {p["node"]: p["device"] for p in result["partition"]["targets"][target]["placements"]}
    norms = [n["name"] for n in result["graph"]["nodes"] if n["op_type"] == "LayerNormalization"]
    assert len(norms) == check["layer_norms"]
    assert check["target_modes"] == {mode: len(norms)}
    assert {placements[n] for n in norms} == {device}
