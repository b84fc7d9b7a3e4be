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
    assert ("(columns M, K, N, tiles, compute, memory, SRAM B, DRAM B left out to fit the terminal;"
            in " ".join(text.split()))


def test_a_wide_terminal_shows_every_column(report):
    text = to_text(report, width=200)
    header = next(line for line in text.splitlines() if line.startswith("node "))
    assert header.split() == [w for c in COLUMNS for w in c.title.split()]
    assert "left out to fit" not in text


def test_json_is_unaffected_by_the_width(report):
    doc = json.loads(to_json(report))
    assert len(doc["layers"]) == len(report.layers)


def test_transfers_are_stated_with_their_element_count_and_dtype():
    from npuready.partition.examples import transformer_like

    report = estimate(transformer_like(), "nnapi-mirror")
    t = report.total()
    assert (t["transfer_elements"], t["transfer_bytes"], t["transfer_export_bytes"]) == (16384, 16384, 65536)
    first = report.transfers[0]
    assert first.to_dict() == {"tensor": first.tensor, "direction": first.direction, "elements": 4096,
                               "dtype": "int8", "bytes": 4096, "export_dtype": "float32", "export_bytes": 16384,
                               "seconds": round(first.seconds, 12)}
    flat = " ".join(to_text(report, width=80).split())
    assert f"transfer {first.direction} {first.tensor}: 4,096 elements × int8 = 4.0 KiB (the NPU build; float32 " \
           "export: 16.0 KiB)" in flat
    assert "transfers 16,384 elements × int8 = 16.0 KiB (the NPU build; float32 export: 64.0 KiB)" in flat
