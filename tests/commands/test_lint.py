"""`npuready lint` on a real Paddle export: its -1/'?' dims pin with --input-shape (H ≠ W)."""
from __future__ import annotations

import json

from npuready.cli import main
from npuready.thirdparty.catalog import get


def test_lint_ppocr_cls_pinned_exits_0_and_records_the_import(tmp_path, capsys):
    out = tmp_path / "lint.json"
    assert main(["lint", str(get("ppocr-cls").path()), "--input-shape", "x=1,3,48,192", "--format", "json",
                 "--output", str(out)]) == 0
    report = json.loads(out.read_text())
    (one,) = report["reports"] if "reports" in report else [report]
    assert one["shapes"]["pinned"] == "--input-shape x=1,3,48,192"
    assert one["shapes"]["imported"]["counts"]["batchnorm-folded"] == 35
    assert not [f for f in one["findings"] if f["severity"] == "ERROR"]


def test_lint_ppocr_cls_unpinned_gives_one_r001a_per_dynamic_dim(capsys):
    main(["lint", str(get("ppocr-cls").path())])
    text = capsys.readouterr().out
    assert "R001a  No dynamic axes  [3]" in text
    assert "pin it with --batch 1 (or --input-shape x=1,3,<x_dim2>,<x_dim3>)" in " ".join(text.split())
