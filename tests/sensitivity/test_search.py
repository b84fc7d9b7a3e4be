"""``quant.keep_float_search``: the order, the stop and the bound of the greedy choice are exact."""
from __future__ import annotations

from dataclasses import dataclass

from npuready.quant.keep_float_search import search
from npuready.sensitivity.table import LayerCost, LayerRow, SensitivityTable

CYCLES = {"a": 100, "b": 10, "c": 50, "d": 1000}


@dataclass(frozen=True)
class _Base:
    target: str = "t"


class _Pricer:
    base = _Base()

    def delta(self, names):
        return LayerCost("t", sum(CYCLES[n] for n in names), 8 * len(names), len(names), "cpu")


def _table():
    rows = (LayerRow("a", "Conv", 0.0, 0.0, 0.10, 0.0, 20.0), LayerRow("b", "Conv", 0.0, 0.0, 0.02, 0.0, 25.0),
            LayerRow("c", "Conv", 0.0, 0.0, 0.0, 0.0, 10.0), LayerRow("d", "Conv", 0.0, 0.0, 0.0, 0.0, 5.0))
    return SensitivityTable("m", "classification", "top-1 agreement", 10, 0.8, rows)


GAIN = {"a": 0.08, "b": 0.03, "c": 0.01, "d": 0.05}


def _evaluate(names):
    return 0.8 + sum(GAIN[n] for n in names)


def test_best_gain_per_cycle_first_until_the_metric_is_reached():
    choice = search(_table(), _Pricer(), _evaluate, 0.90)
    assert [k.name for k in choice.kept] == ["b", "a"]  # 0.002/cycle before 0.001/cycle
    assert choice.stopped_by == "reached" and choice.reached
    assert choice.extra_cycles == 110 and choice.metric == _evaluate(["b", "a"])


def test_once_reached_a_layer_the_rest_can_do_without_is_dropped_again():
    choice = search(_table(), _Pricer(), _evaluate, 0.88)
    # b (0.83), then a (0.91 ≥ 0.88); dropping a leaves 0.83, dropping b leaves 0.88: b goes
    assert [k.name for k in choice.kept] == ["a"] and choice.extra_cycles == 100
    assert [s.layer for s in choice.steps] == ["b", "a", "-b"] and choice.metric == _evaluate(["a"])


def test_after_the_gains_the_lowest_sqnr_comes_next_and_a_cycle_bound_skips():
    choice = search(_table(), _Pricer(), _evaluate, 0.99, max_extra_cycles=200)
    assert [k.name for k in choice.kept] == ["b", "a", "c"]  # d (SQNR 5 dB) would pass 200 cycles
    assert choice.stopped_by == "max-extra-cycles" and not choice.reached
    assert [s.extra_cycles for s in choice.steps] == [10, 110, 160]


def test_max_layers_bounds_the_set():
    choice = search(_table(), _Pricer(), _evaluate, 0.99, max_layers=1)
    assert [k.name for k in choice.kept] == ["b"] and choice.stopped_by == "max-layers"
