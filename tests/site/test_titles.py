"""Column titles: every stored key shown as a table column on the repository's site has a registered title."""
from pathlib import Path

import pytest

import npuready.site.tables as tables
from npuready.site.render import render_site
from npuready.site.source import load_experiments
from npuready.site.titles import TITLES, header, title, untitled

REPO = Path(__file__).resolve().parents[2]


def test_every_column_key_on_the_repository_site_has_a_title(monkeypatch: pytest.MonkeyPatch):
    shown: set[str] = set()
    real = tables.header

    def spy(key: str):
        shown.add(key)
        return real(key)

    monkeypatch.setattr(tables, "header", spy)
    render_site(load_experiments(REPO / "experiments"), {})
    assert len(shown) > 50  # the spy saw the generic and hand-designed tables
    assert {k: untitled(k) for k in sorted(shown) if untitled(k)} == {}


def test_a_nested_key_is_titled_part_by_part_and_takes_the_last_unit():
    assert title("ort.partitions") == ("onnxruntime · Partitions", "")
    assert title("energy_uj") == ("Energy", "µJ")
    assert title("per_class_ap50.3") == ("Per-class AP50 · 3", "0–1")
    assert untitled("per_class_ap50.3") == []


def test_an_unknown_key_is_humanised_and_reported():
    assert title("made_up.cycles") == ("made up · Cycles", "cycles")
    assert untitled("made_up.cycles") == ["made_up"]


def test_header_shows_title_and_unit_and_keeps_the_stored_key_on_hover():
    assert str(header("latency_s")) == ('<span class="col" data-key="latency_s" title="stored as latency_s">'
                                        'Latency</span> <span class="unit">(s)</span>')
    assert str(header("model")) == '<span class="col" data-key="model" title="stored as model">Model</span>'


def test_titles_are_short_human_text():
    for key, (name, unit) in TITLES.items():
        assert name and "_" not in name and len(name) <= 40, key
        assert len(unit) <= 6, key
