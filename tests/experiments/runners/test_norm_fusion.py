from npuready.experiments.context import RunContext
from npuready.experiments.runners import norm_fusion
from npuready.paths import repo_root


def test_runner_reports_fusion_error_per_subject(monkeypatch):
    monkeypatch.setattr(norm_fusion, "_zoo_rows", lambda ctx, count, tolerance: [])
    ctx = RunContext("norm-fusion", {"photos": ["coffee", "china"], "seed": 0, "tolerance": 1e-4}, repo_root(),
                     show_progress=False)
    results = norm_fusion.run(ctx)
    rows = {r["model"]: r for r in results["photos"]["rows"]}
    assert [r["strategy"] for r in rows.values()] == ["fold", "subtract", "subtract", "fold"]
    assert [r["within_tolerance"] for r in rows.values()] == [True, True, True, False]
    assert all(r["images"] == 2 and r["calibration_range"][0] >= 0 and r["calibration_range"][1] <= 255
               for r in rows.values())
    assert results["calibration_variant"]["fused_model"].startswith("raw uint8 RGB")


def test_zoo_models_are_fused_from_their_manifest_contract(tmp_path, monkeypatch):
    import json

    import numpy as np
    import onnx

    import npuready.data
    from npuready.preprocess.example_models import conv_classifier

    (tmp_path / "zoo").mkdir()
    model = conv_classifier(channels=1, size=28, first_pads=1)
    model.graph.input[0].name = "input"
    for node in model.graph.node:
        node.input[:] = ["input" if i == "image" else i for i in node.input]
    onnx.save(model, str(tmp_path / "zoo" / "tiny.onnx"))
    contract = {"name": "input", "shape": [1, 1, 28, 28], "layout": "NCHW", "scale": 1 / 255, "mean": [0.3],
                "std": [0.35]}
    (tmp_path / "zoo" / "zoo.json").write_text(json.dumps({"models": {"tiny": {"input": contract}}}))
    monkeypatch.setenv("NPUREADY_REPO", str(tmp_path))
    rng = np.random.default_rng(0)
    monkeypatch.setattr(npuready.data, "fashion_mnist_subset",
                        lambda split: (rng.integers(0, 256, (8, 28, 28), dtype=np.uint8), np.arange(8)))
    ctx = RunContext("norm-fusion", {}, tmp_path, show_progress=False)
    rows = norm_fusion._zoo_rows(ctx, 8)
    assert len(rows) == 1 and rows[0]["model"] == "zoo/tiny.onnx" and rows[0]["fused"]
    assert rows[0]["strategy"] == "subtract" and rows[0]["images"] == 8 and rows[0]["within_tolerance"]
