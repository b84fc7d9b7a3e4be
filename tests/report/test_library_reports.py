"""Model reports on library-built architectures (random-initialised weights; needs the corpus extra)."""
import pytest
from corpus_extra import needs_corpus

from npuready.report import ReportRequest, build_report

pytestmark = needs_corpus


def test_squeezenet_report_macs_agree_with_torchs_flop_counter(tmp_path, monkeypatch):
    monkeypatch.setenv("NPUREADY_CACHE", str(tmp_path))
    result = build_report(ReportRequest(model="library:squeezenet1_1", targets=("edge-10",), stages=("cost",)))
    macs = result["checks"]["macs"]
    assert macs["ok"] and macs["cost_model_macs"] == macs["independent_macs"] > 0
    assert result["model"]["weights"].startswith("random-initialised") and result["checks"]["all_ok"]


def test_a_library_model_is_named_by_its_recipe_not_by_its_path_in_the_cache(tmp_path, monkeypatch):
    import json

    monkeypatch.setenv("NPUREADY_CACHE", str(tmp_path))
    result = build_report(ReportRequest(model="library:squeezenet1_1", targets=("edge-10",),
                                        stages=("lint", "partition", "cost")))
    text = json.dumps(result)
    assert str(tmp_path) not in text  # the machine's cache folder would make the report differ per machine
    assert result["cost"]["targets"]["edge-10"]["model"] == "library:squeezenet1_1"
    assert result["lint"]["targets"]["edge-10"]["model_key"] == "library:squeezenet1_1"


@pytest.mark.slow
def test_yolov8n_box_decode_sits_in_the_cpu_tail():
    result = build_report(ReportRequest(model="library:yolov8n", stages=("lint", "partition", "cost")))
    for target in ("edge-10", "ethos-u55-128"):
        tail = result["checks"]["targets"][target]["yolo_tail"]
        assert tail["head_scope"] == "/model.22/" and tail["decode_nodes"] > 0 and tail["ok"], tail
    assert result["checks"]["all_ok"]
