"""The terminal diff's number format: the site's (accuracy 0.8808, never 88.08%), counts with separators."""
from __future__ import annotations

from npuready.history.compare import FigureChange
from npuready.history.render import delta_text, value_text


def _change(kind: str, a, b) -> FigureChange:
    return FigureChange("parity-ladder", "tinycnn: float top-1", "/results/x", kind, a, b, "changed")


def test_accuracy_is_a_fraction_as_on_the_site():
    assert value_text(0.8808, "accuracy") == "0.8808"
    assert value_text(0.88, "accuracy") == "0.88"
    assert delta_text(_change("accuracy", 0.8808, 0.8812)) == "+0.0004"
    assert delta_text(_change("accuracy", 0.8812, 0.8808)) == "-0.0004"


def test_counts_and_cycles_keep_thousands_separators():
    assert value_text(3287840, "cycles") == "3,287,840"
    assert value_text(3287840.0, "cycles") == "3,287,840"
    assert delta_text(_change("cycles", 3287840, 3684080)) == "+396,240"
    assert value_text(None, "accuracy") == "—" and value_text(True, "verdict") == "yes"
