"""The intake text fits 80 columns."""
from npuready.intake import intake
from npuready.intake.render import render_text
from npuready.paths import repo_root
from npuready.terminal import overlong


def test_text_at_80_columns_has_no_breakable_line_over_80():
    report = intake(str(repo_root() / "zoo" / "vit_tiny.onnx"), "edge-10")
    text = render_text(report, width=80)
    assert overlong(text, 80) == []
    assert "  hot spots (top layers by simulated cycles):\n    node " in text
