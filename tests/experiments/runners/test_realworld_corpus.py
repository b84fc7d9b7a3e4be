import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2] / "models" / "library"))
from corpus_extra import needs_corpus  # noqa: E402

from npuready.experiments.context import RunContext  # noqa: E402
from npuready.paths import repo_root  # noqa: E402


@needs_corpus
def test_one_row_per_model_and_target_with_the_reports_checks(tmp_path, monkeypatch):
    from npuready.experiments.runners import realworld_corpus
    from npuready.experiments.task import run_inline

    monkeypatch.setenv("NPUREADY_CACHE", str(tmp_path))
    ctx = RunContext("realworld-corpus", {"models": ["squeezenet1_1"], "targets": ["edge-10", "ethos-u55-128"]},
                     repo_root(), show_progress=False)
    out = run_inline(realworld_corpus, ctx)
    rows = out["summary"]["rows"]
    assert [(r["model"], r["target"]) for r in rows] == [("squeezenet1_1", "edge-10"),
                                                         ("squeezenet1_1", "ethos-u55-128")]
    assert all(r["checks_ok"] and r["macs"] == r["independent_macs"] for r in rows)
    report = out["reports"]["models"]["squeezenet1_1"]
    assert report["graph"]["node_count"] == rows[0]["nodes"] and out["summary"]["evidence"] == "analysis"
    assert ctx.tools["torchvision"] and "squeezenet1_1_s" in ctx.timings and "squeezenet1_1.total_s" in ctx.timings
    assert "timing" not in report and "report_s" not in rows[0]  # wall seconds live in the timing block only


def _committed():
    import json

    import pytest

    path = repo_root() / "experiments" / "realworld-corpus" / "result.json"
    if not path.exists():
        pytest.skip("realworld-corpus has no committed result")
    return json.loads(path.read_text())


def test_committed_corpus_covers_the_spec_and_its_checks_are_consistent():
    doc = _committed()
    models, targets = doc["spec"]["params"]["models"], doc["spec"]["params"]["targets"]
    rows = doc["results"]["summary"]["rows"]
    assert len(models) >= 14 and [(r["model"], r["target"]) for r in rows] == [(m, t) for m in models for t in targets]
    for r in rows:
        report = doc["results"]["reports"]["models"][r["model"]]
        assert r["node_count_ok"] and report["checks"]["node_count"]["onnx_nodes"] == r["nodes"]
        assert r["target_checks_ok"], r  # per-layer cycles sum to the totals; YOLO box decode in the CPU tail
        ratio_ok = abs(r["macs"] - r["independent_macs"]) * 100 <= r["independent_macs"]
        assert r["macs_ok"] == ratio_ok
        assert r["checks_ok"] == (r["node_count_ok"] and r["target_checks_ok"] and r["macs_ok"])
    failed = {(f["model"], f["target"]) for f in doc["results"]["checks_failed"]["rows"]}
    assert failed == {(r["model"], r["target"]) for r in rows if not r["checks_ok"]}


def test_committed_corpus_yolo_rows_put_the_box_decode_in_the_cpu_tail():
    rows = _committed()["results"]["summary"]["rows"]
    yolo = [r for r in rows if r["model"].startswith("yolo")]
    assert yolo and all(r["yolo_tail_ok"] is True for r in yolo)
    assert all(r["yolo_tail_ok"] is None for r in rows if not r["model"].startswith("yolo"))


def test_committed_corpus_static_exports_have_no_dynamic_axis_findings_and_exact_macs():
    """Issue 12's goal on library-built static exports: shapes resolve (no R001a anywhere) and the cost
    model's MACs agree with torch's independent count within 1% on every architecture."""
    doc = _committed()
    for name, report in doc["results"]["reports"]["models"].items():
        for target, section in report["targets"].items():
            assert not any(key.startswith("R001a") for key in section["lint"]["by_rule"]), (name, target)
    assert all(r["macs_ok"] for r in doc["results"]["summary"]["rows"])
