import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2] / "models" / "library"))
from corpus_extra import needs_corpus  # noqa: E402

from npuready.experiments.context import RunContext  # noqa: E402
from npuready.paths import repo_root  # noqa: E402


@needs_corpus
def test_one_row_per_model_and_target_with_the_reports_checks(tmp_path, monkeypatch):
    from npuready.experiments.runners import realworld_corpus

    monkeypatch.setenv("NPUREADY_CACHE", str(tmp_path))
    ctx = RunContext("realworld-corpus", {"models": ["squeezenet1_1"], "targets": ["edge-10", "ethos-u55-128"]},
                     repo_root(), show_progress=False)
    out = realworld_corpus.run(ctx)
    rows = out["summary"]["rows"]
    assert [(r["model"], r["target"]) for r in rows] == [("squeezenet1_1", "edge-10"), ("squeezenet1_1", "ethos-u55-128")]
    assert all(r["checks_ok"] and r["macs"] == r["independent_macs"] for r in rows)
    report = out["reports"]["models"]["squeezenet1_1"]
    assert report["graph"]["node_count"] == rows[0]["nodes"] and out["summary"]["evidence"] == "analysis"
    assert ctx.tools["torchvision"] and "squeezenet1_1_s" in ctx.timings
