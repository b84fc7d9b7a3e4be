"""The cost text fits 80 columns (table columns left out, and said so); JSON is not wrapped."""
import json

import pytest

from npuready.cost import estimate
from npuready.cost.render import COLUMNS, to_json, to_text
from npuready.paths import repo_root
from npuready.terminal import overlong


@pytest.fixture(scope="module")
def report():
    return estimate(repo_root() / "zoo" / "resnet20.onnx", "edge-10")


def test_text_at_80_columns_has_no_breakable_line_over_80(report):
    text = to_text(report, all_layers=True, width=80)
    assert overlong(text, 80) == []
    assert "(columns M, K, N, tiles, compute, memory, SRAM B, DRAM B left out to fit the terminal;" in " ".join(text.split())


def test_a_wide_terminal_shows_every_column(report):
    text = to_text(report, width=200)
    header = next(line for line in text.splitlines() if line.startswith("node "))
    assert header.split() == [w for c in COLUMNS for w in c.title.split()]
    assert "left out to fit" not in text


def test_json_is_unaffected_by_the_width(report):
    doc = json.loads(to_json(report))
    assert len(doc["layers"]) == len(report.layers)
