"""The ptq-methods runner on a small untrained zoo: rows per method, baseline == minmax, calibration recorded."""
import json

import pytest

torch = pytest.importorskip("torch")

from npuready.experiments.context import RunContext  # noqa: E402
from npuready.experiments.runners import ptq_methods  # noqa: E402
from npuready.experiments.task import run_inline  # noqa: E402


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    from npuready.models.onnx_export import export_onnx, save_checkpoint
    from npuready.models.zoo import ZOO

    zoo = tmp_path_factory.mktemp("zoo")
    torch.manual_seed(0)
    spec = ZOO["tinycnn"]
    model = spec.build().eval()
    save_checkpoint(model, zoo / "tinycnn.pt")
    export_onnx(model, spec, zoo / "tinycnn.onnx")
    contract = {"name": "input", "shape": [1, 1, 28, 28], "layout": "NCHW", "scale": 1 / 255,
                "mean": list(spec.mean), "std": list(spec.std)}
    (zoo / "zoo.json").write_text(json.dumps({"models": {"tinycnn": {"input": contract}}}))
    params = {"zoo": str(zoo), "models": ["tinycnn"], "methods": ["ort-quantize_static", "minmax", "cle+minmax"],
              "calibration_images": 20, "qat_models": ["tinycnn"], "qat_steps": 2, "qat_batch": 8, "threads": 1}
    ctx = RunContext("ptq-methods", params, zoo, show_progress=False)
    return run_inline(ptq_methods, ctx), ctx


def test_one_row_per_method_with_float_reference(results):
    res, _ = results
    rows = res["accuracy"]["rows"]
    assert [r["method"] for r in rows] == ["ort-quantize_static", "minmax", "cle+minmax", "qat"]
    assert len({r["float_accuracy"] for r in rows}) == 1
    assert res["accuracy"]["test_images"] == 1000
    assert all(r["drop_pp"] == round(100 * (r["float_accuracy"] - r["int8_accuracy"]), 2) for r in rows)


def test_minmax_reproduces_the_onnxruntime_baseline(results):
    rows = {r["method"]: r for r in results[0]["accuracy"]["rows"]}
    assert rows["minmax"]["int8_accuracy"] == rows["ort-quantize_static"]["int8_accuracy"]
    assert rows["minmax"]["top1_agreement"] == rows["ort-quantize_static"]["top1_agreement"]


def test_calibration_and_details_recorded(results):
    res, ctx = results
    cal = res["calibration"]["models"]["tinycnn"]
    assert cal["count"] == 20 and sum(cal["per_class"].values()) == 20
    cle = res["method_details"]["models"]["tinycnn"]["cle+minmax"]["cle"]
    assert cle["pairs_equalised"] == 3 and cle["pairs_skipped"] == 0  # conv→conv→conv→Gemm
    assert res["method_details"]["models"]["tinycnn"]["qat"]["qat"]["steps"] == 2
    assert {s["evidence"] for s in res.values()} <= {"measured", "reference"}
    assert "tinycnn:qat:quantize_s" in ctx.timings and res["failures"]["rows"] == []
