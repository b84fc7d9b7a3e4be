"""``--keep-float auto``: choose the layers to keep float from the sensitivity table, cheapest recovery first.

Candidates are the table's rows whose gain (the larger of keep-float and unrounded-output) is positive, taken
in order of gain per cycle added on
the target (``sensitivity.cost``; a layer adding no cycles counts as one cycle), then the rest, lowest output
SQNR first (gains below the held-out set's resolution still add up). Each is added in turn and the
whole kept set is re-measured (``evaluate``: the task metric on held-out calibration images, end to end on the
rung the caller chose) until the metric reaches ``min_metric``. A candidate that would take the set's added
cycles past ``max_extra_cycles`` is skipped; ``max_layers`` bounds the set. Once the metric is reached, each
kept layer is dropped again in turn (most cycles first) when the rest still reach it. The choice records every
step (a drop as ``-name``) and which bound stopped the search.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable


@dataclass(frozen=True)
class KeptLayer:
    name: str
    op_type: str
    reason: str
    gain: float | None                 # the table's keep-float gain alone (measured), None for a manual choice
    extra_cycles: int                  # the layer alone, on the target (simulated)
    extra_transfer_bytes: int


@dataclass(frozen=True)
class Step:
    layer: str
    metric: float                      # the whole set's metric after adding it (measured)
    extra_cycles: int                  # the whole set's cycles added (simulated)
    extra_transfer_bytes: int


@dataclass(frozen=True)
class KeepChoice:
    target: str
    rung: str                          # what ``metric`` was measured on: integer | fake_quant
    metric_int8: float | None         # None: not measured (a manual choice without held-out data)
    metric: float | None
    min_metric: float | None
    kept: tuple[KeptLayer, ...]
    steps: tuple[Step, ...]
    extra_cycles: int
    extra_transfer_bytes: int
    stopped_by: str                    # reached | max-extra-cycles | max-layers | no-candidates | manual

    @property
    def reached(self) -> bool:
        return self.min_metric is not None and self.metric is not None and self.metric >= self.min_metric

    def to_dict(self) -> dict:
        d = asdict(self)
        d["reached"] = self.reached
        d["evidence"] = {"metric": "measured", "gain": "measured", "extra_cycles": "simulated",
                         "extra_transfer_bytes": "simulated"}
        return d


def _kept(row, cost, reason: str) -> KeptLayer:
    return KeptLayer(row.name, row.op_type, reason, row.gain_float, cost.extra_cycles, cost.extra_transfer_bytes)


def _gain(row) -> float:
    """What keeping the layer float can recover: its weights and compute (``gain_float``), or its output
    activation once its readers are float too (``gain_output``), whichever the table measured larger."""
    return max(row.gain_float, row.gain_output)


def search(table, pricer, evaluate: Callable[[list[str]], float], min_metric: float,
           max_extra_cycles: int | None = None, max_layers: int | None = None, rung: str = "integer",
           metric_int8: float | None = None) -> KeepChoice:
    """``pricer``: ``sensitivity.cost.KeepFloatCost`` of the target; ``evaluate(names)``: the metric of the
    build with ``names`` kept float (``[]`` = all INT8, measured first unless ``metric_int8`` is given)."""
    single = {r.name: pricer.delta([r.name]) for r in table.rows}
    order = sorted((r for r in table.rows if _gain(r) > 0),
                   key=lambda r: (-_gain(r) / max(single[r.name].extra_cycles, 1), r.name))
    order += sorted((r for r in table.rows if _gain(r) <= 0),  # then the noisiest outputs first
                    key=lambda r: (r.sqnr_db if r.sqnr_db is not None else float("inf"), r.name))
    base = evaluate([]) if metric_int8 is None else metric_int8
    metric, kept, steps, chosen = base, [], [], []
    set_cost = pricer.delta([])
    stopped, skipped = "no-candidates", False
    for row in order:
        if metric >= min_metric:
            break
        if max_layers is not None and len(chosen) >= max_layers:
            stopped = "max-layers"
            break
        trial = pricer.delta([*chosen, row.name])
        if max_extra_cycles is not None and trial.extra_cycles > max_extra_cycles:
            skipped = True
            continue
        chosen.append(row.name)
        metric, set_cost = evaluate(chosen), trial
        kept.append(_kept(row, single[row.name], f"auto: gain {_gain(row):+.4f} alone (keep-float "
                                                 f"{row.gain_float:+.4f}, unrounded output {row.gain_output:+.4f}) "
                                                 f"on {table.images} held-out images; the set reaches {metric:.4f}"))
        steps.append(Step(row.name, metric, trial.extra_cycles, trial.extra_transfer_bytes))
    if metric >= min_metric:
        stopped = "reached"
        chosen, metric, set_cost, dropped = _trim(chosen, metric, min_metric, single, pricer, evaluate)
        kept = [k for k in kept if k.name in chosen]
        steps += [Step(f"-{n}", m, c.extra_cycles, c.extra_transfer_bytes) for n, m, c in dropped]
    elif stopped == "no-candidates" and skipped:
        stopped = "max-extra-cycles"
    return KeepChoice(pricer.base.target, rung, base, metric, min_metric, tuple(kept), tuple(steps),
                      set_cost.extra_cycles, set_cost.extra_transfer_bytes, stopped)


def _trim(chosen, metric, min_metric, single, pricer, evaluate):
    """Once the metric is reached: try dropping each kept layer, most cycles first; a drop that keeps the
    metric at ``min_metric`` or above stays (gains overlap, so the greedy set is rarely minimal)."""
    dropped, set_cost = [], pricer.delta(chosen)
    for name in sorted(chosen, key=lambda n: (-single[n].extra_cycles, n)):
        trial = [n for n in chosen if n != name]
        m = evaluate(trial)
        if m >= min_metric:
            chosen, metric, set_cost = trial, m, pricer.delta(trial)
            dropped.append((name, m, set_cost))
    return chosen, metric, set_cost, dropped


def manual(names, layers, pricer, evaluate: Callable[[list[str]], float] | None = None,
           rung: str = "integer") -> KeepChoice:
    """The record of a manual ``--keep-float NODE,NODE`` (``layers``: ``quant.keep_float.quantised_layers``)."""
    ops = {layer.name: layer.op_type for layer in layers}
    kept = []
    for n in names:
        c = pricer.delta([n])
        kept.append(KeptLayer(n, ops.get(n, "?"), "manual: --keep-float", None, c.extra_cycles,
                              c.extra_transfer_bytes))
    total = pricer.delta(list(names))
    base = evaluate([]) if evaluate else None
    metric = evaluate(list(names)) if evaluate else None
    return KeepChoice(pricer.base.target, rung, base, metric, None, tuple(kept), (), total.extra_cycles,
                      total.extra_transfer_bytes, "manual")
