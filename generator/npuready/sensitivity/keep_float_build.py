"""The mixed-precision build of ``npuready quantize --keep-float``: the QDQ model with the chosen layers float,
and the record written beside it (``<out>.keep-float.json``: each kept layer with its reason and cost, the
metric before and after, which bound stopped an automatic search)."""
from __future__ import annotations

from pathlib import Path

import onnx

from npuready.atomic import dumps_json, write_text
from npuready.errors import InputError
from npuready.quant.keep_float import keep_float, quantised_layers
from npuready.quant.keep_float_search import KeepChoice, manual, search

RUNGS = ("integer", "fake-quant")


def record_path(out: str | Path) -> Path:
    out = Path(out)
    return out.with_name(out.stem + ".keep-float.json")


def parse_names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise InputError(f"--keep-float {text!r}: give node names separated by commas, or auto")
    return names


def build_mixed(float_model: onnx.ModelProto, qdq: onnx.ModelProto, keep: str, target: str, holdout=None,
                task: str | None = None, min_metric: float | None = None, max_extra_cycles: int | None = None,
                rung: str = "integer", progress=lambda it, d: it, max_layers: int | None = None):
    """(mixed model, KeepChoice, sensitivity table or None). ``keep``: "auto" or "NODE,NODE"; ``holdout``: the
    held-out inputs an automatic search (and a manual choice's before/after metric) is scored on."""
    from npuready.sensitivity.cost import KeepFloatCost

    if rung not in RUNGS:
        raise InputError(f"rung {rung!r}: use one of {', '.join(RUNGS)}")
    pricer = KeepFloatCost(float_model, target)
    evaluate = scorer = None
    if holdout is not None:
        from npuready.sensitivity.measure import Scorer

        scorer = Scorer(float_model, holdout, task)
        run = scorer.score_integer if rung == "integer" else scorer.score

        def evaluate(names):
            return run(keep_float(qdq, float_model, names) if names else qdq)
    if keep != "auto":
        names = parse_names(keep)
        model = keep_float(qdq, float_model, names)  # refuses an unknown name (exit 2)
        return model, manual(names, quantised_layers(qdq), pricer, evaluate, rung), None
    if min_metric is None or holdout is None:
        raise InputError("--keep-float auto: needs --min-metric X (the task metric to reach on held-out images)")
    from npuready.sensitivity.measure import measure_sensitivity

    table = measure_sensitivity(float_model, qdq, holdout, task, progress, scorer=scorer)
    choice = search(table, pricer, evaluate, min_metric, max_extra_cycles, max_layers, rung)
    names = [k.name for k in choice.kept]
    return (keep_float(qdq, float_model, names) if names else qdq), choice, table


def write_record(out: str | Path, choice: KeepChoice, table=None, source: str = "") -> Path:
    doc = {"model": Path(out).name, "calibration": source, "keep_float": choice.to_dict()}
    if table is not None:
        doc["sensitivity"] = table.to_dict()
    return write_text(record_path(out), dumps_json(doc))
