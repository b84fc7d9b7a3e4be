"""The lint text fits 80 columns; continuation lines are indented under their finding."""
from npuready.lint import lint
from npuready.lint.render.text import render
from npuready.paths import repo_root
from npuready.terminal import overlong


def test_text_at_80_columns_has_no_breakable_line_over_80():
    report = lint(repo_root() / "zoo" / "vit_tiny.onnx", target="edge-10")
    text = render([report], width=80)
    assert overlong(text, 80) == []
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("      - "))
    assert lines[first + 1].startswith(" " * 10) and not lines[first + 1].startswith(" " * 11)
