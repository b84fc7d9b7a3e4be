import json

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from npuready.partition import extract, plan_partition, run_parts
from npuready.partition.examples import EXAMPLES, example_inputs, yolo_like
from npuready.partition.extract import build_parts

CASES = [(name, target, edges) for name in EXAMPLES for target in ("edge-10", "nnapi-mirror")
         for edges in ("npu", "cpu")]


@pytest.mark.parametrize("name,target,edges", CASES)
def test_head_body_tail_recompose_the_original_outputs(tmp_path, name, target, edges):
    m = EXAMPLES[name]()
    plan = plan_partition(m, target, edges=edges)
    manifest = extract(plan, tmp_path)
    feeds = example_inputs(m, seed=7)
    ref = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    got = run_parts(tmp_path, feeds)
    assert list(got) == [o.name for o in m.graph.output]
    for r, o in zip(ref, m.graph.output):
        assert got[o.name].shape == r.shape and got[o.name].dtype == r.dtype
        assert np.max(np.abs(got[o.name].astype(np.float64) - r.astype(np.float64)), initial=0.0) <= 1e-5
    assert [p["name"] for p in manifest["parts"]] == [s.name for s in plan.segments]
    assert sorted(f.name for f in tmp_path.iterdir()) == sorted([p["file"] for p in manifest["parts"]]
                                                                + ["manifest.json"])
    for p in manifest["parts"]:
        onnx.checker.check_model(onnx.load(str(tmp_path / p["file"])))


def test_detector_outputs_are_non_trivial():
    m = yolo_like()
    session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    out = session.run(None, example_inputs(m, seed=7))
    assert 0 < out[0].shape[0]  # NMS keeps boxes, so the recomposition test compares real detections


def test_parts_carry_only_their_initializers_and_folded_helpers():
    plan = plan_partition(yolo_like(), "edge-10", edges="cpu")
    body, tail = build_parts(plan)
    assert body.name == "body_0" and tail.name == "tail"
    body_inits = {t.name for t in body.model.graph.initializer}
    assert body_inits == {"stem.w", "stem.b", "stage.w", "stage.b", "cls_head.w", "cls_head.b", "reg_head.w",
                          "reg_head.b"}
    tail_nodes = {n.name: n.op_type for n in tail.model.graph.node}
    assert tail_nodes["cls_shape"] == "Constant"  # Shape of a static tensor, materialised as its value
    assert tail_nodes["anchor_points"] == "Constant"
    assert "stem.w" not in {t.name for t in tail.model.graph.initializer}


def test_manifest_lists_connections(tmp_path):
    plan = plan_partition(yolo_like(), "edge-10", edges="cpu")
    extract(plan, tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["parts"][0]["file"] == "body_0.onnx"
    assert manifest["parts"][0]["outputs"] == ["cls_logits", "reg_raw"]
    assert manifest["parts"][1]["inputs"] == ["reg_raw", "cls_logits"]
    assert manifest["outputs"] == ["selected", "det_boxes", "scores"]
