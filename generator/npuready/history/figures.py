"""Key figures: the few numbers per experiment whose movement across commits is worth watching.

An explicit registry: experiment id → (label, JSON pointer into ``result.json``, kind). The kind says how a
value reads (and how the site formats it): ``accuracy`` a fraction (shown as one, 0.8808), ``cycles`` and
``count`` integers, ``ratio`` and ``error`` plain numbers, ``verdict`` a goal met or a named outcome
(true/false or a word). A pointer that does not resolve at some commit reads as absent there (the result
had another layout then); tests/history/test_figures.py checks every pointer resolves in the committed
results. Experiments not listed here (a new ``kind = "model-report"`` spec, say) get ``KIND_FIGURES`` by kind.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

KINDS = ("accuracy", "cycles", "count", "ratio", "error", "verdict")


@dataclass(frozen=True)
class KeyFigure:
    label: str
    pointer: str
    kind: str


def _f(label: str, pointer: str, kind: str) -> KeyFigure:
    assert kind in KINDS, kind
    return KeyFigure(label, pointer, kind)


_ZOO = "/results/classifiers/rows/"
_PTQ = "/results/accuracy/rows/"
_CPT = "/results/costs/rows/"


def _row(**fields: str) -> str:
    """A row selector (``history.select``): the table row about these, wherever it sits."""
    return "[" + ",".join(f"{k}={v.replace('~', '~0').replace('/', '~1')}" for k, v in fields.items()) + "]"

KEY_FIGURES: dict[str, tuple[KeyFigure, ...]] = {
    "activation-swap": (
        _f("vit_tiny on edge-10-nolut: top-1 before swap",
           "/results/accuracy/rows/" + _row(model="vit_tiny", target="edge-10-nolut") + "/accuracy_before", "accuracy"),
        _f("vit_tiny on edge-10-nolut: top-1 after swap",
           "/results/accuracy/rows/" + _row(model="vit_tiny", target="edge-10-nolut") + "/accuracy_after_swap",
           "accuracy"),
        _f("vit_tiny on edge-10-nolut: top-1 after recovery",
           "/results/accuracy/rows/" + _row(model="vit_tiny", target="edge-10-nolut") + "/accuracy_after_recovery",
           "accuracy"),
    ),
    "bitexact-litert": tuple(
        fig for m in ("tinycnn", "resnet20", "mobilenetv2") for fig in (
            _f(f"{m}: tensors differing from LiteRT reference", f"/results/{m}/tensors_mismatched", "count"),
            _f(f"{m}: elements differing (propagated)", f"/results/{m}/elements_mismatched_propagated", "count"),
            _f(f"{m}: C++ vs NumPy tensors differing", f"/results/{m}/cpp_vs_numpy/tensors_mismatched", "count"),
        )),
    "bitexact-realworld": (
        _f("architectures run", "/results/totals/models_ran", "count"),
        _f("tensors differing from LiteRT reference", "/results/totals/tensors_mismatched", "count"),
        _f("int8 codes differing from LiteRT reference", "/results/totals/elements_mismatched", "count"),
        _f("C++ vs NumPy tensors differing", "/results/totals/cpp_tensors_mismatched", "count"),
    ),
    "cost-per-target": (
        _f("resnet20 on edge-10: cycles", _CPT + _row(model="resnet20", target="edge-10") + "/cycles", "cycles"),
        _f("resnet20 on ethos-u55-128: cycles",
           _CPT + _row(model="resnet20", target="ethos-u55-128") + "/cycles", "cycles"),
        _f("mobilenetv2 on edge-10: cycles", _CPT + _row(model="mobilenetv2", target="edge-10") + "/cycles", "cycles"),
        _f("vit_tiny on edge-10: cycles", _CPT + _row(model="vit_tiny", target="edge-10") + "/cycles", "cycles"),
        _f("vit_tiny on edge-10-nolut: cycles",
           _CPT + _row(model="vit_tiny", target="edge-10-nolut") + "/cycles", "cycles"),
    ),
    "trained-thirdparty": (
        _f("models quantised", "/results/summary/quantised", "count"),
        _f("models whose integer rung ran", "/results/summary/integer_rung_ran", "count"),
        _f("tensors differing from LiteRT reference", "/results/summary/litert_tensors_mismatched", "count"),
    ),
    "vendor-export": (
        _f("tensors differing from LiteRT reference", "/results/summary/tensors_mismatched_vs_litert", "count"),
        _f("lowest Vela ratio", "/results/summary/vela_ratio_min", "ratio"),
        _f("highest Vela ratio", "/results/summary/vela_ratio_max", "ratio"),
        _f("models whole on Qualcomm HTP", "/results/summary/htp_models_all_on_htp", "count"),
        _f("vit_tiny: HTP top-1 agreement with float", "/results/vit_tiny/qnn_htp/top1_agreement_htp_vs_float",
           "accuracy"),
    ),
    "cost-vs-scalesim": (
        _f("model x array pairs", "/results/summary/pairs", "count"),
        _f("layers compared", "/results/summary/layers", "count"),
        _f("max |layer error|", "/results/summary/max_abs_layer_error", "error"),
        _f("max |model error|", "/results/summary/max_abs_model_error", "error"),
        _f("goal met", "/results/summary/goal_met", "verdict"),
    ),
    "cost-vs-vela": (
        _f("model x target pairs", "/results/summary/pairs", "count"),
        _f("total cycles ratio, min", "/results/summary/total_ratio_min", "ratio"),
        _f("total cycles ratio, max", "/results/summary/total_ratio_max", "ratio"),
        _f("totals within goal", "/results/summary/totals_goal_met", "verdict"),
        _f("categories within goal", "/results/summary/categories_goal_met", "verdict"),
    ),
    "intake": (
        _f("reports", "/results/summary/reports", "count"),
        _f("prescribed actions", "/results/summary/actions", "count"),
        _f("blocked by lint", "/results/summary/blocked_by_lint", "count"),
        _f("fragmented", "/results/summary/fragmented", "count"),
        _f("zoo models applied", "/results/summary/zoo_models_applied", "count"),
    ),
    "lint-corpus": (
        _f("corpus models loaded", "/results/corpus/summary/loaded", "count"),
        _f("corpus models blocked", "/results/corpus/summary/blocked", "count"),
        _f("corpus models clean", "/results/corpus/summary/clean", "count"),
        _f("zoo models blocked", "/results/zoo/summary/blocked", "count"),
        _f("zoo models clean", "/results/zoo/summary/clean", "count"),
    ),
    "model-report-yolov8n": (
        _f("all sanity checks pass", "/results/checks/all_ok", "verdict"),
        _f("ONNX nodes", "/results/graph/node_count", "count"),
        _f("edge-10: cycles", "/results/cost/targets/edge-10/total/cycles", "cycles"),
        _f("edge-10: NPU segments", "/results/partition/targets/edge-10/npu_segments", "count"),
        _f("edge-10: lint warnings", "/results/lint/targets/edge-10/summary/warnings", "count"),
        _f("edge-10: lint errors", "/results/lint/targets/edge-10/summary/errors", "count"),
    ),
    "norm-fusion": tuple(
        fig for m in ("detector", "mobilenetv2", "resnet20", "tinycnn", "vit_tiny") for fig in (
            _f(f"zoo {m}: max |difference| after folding",
               "/results/zoo/rows/" + _row(model=f"zoo/{m}.onnx") + "/max_abs_diff", "error"),
            _f(f"zoo {m}: within tolerance", "/results/zoo/rows/" + _row(model=f"zoo/{m}.onnx") + "/within_tolerance",
               "verdict"),
        )),
    "mixed-precision": tuple(
        fig for b, label in (("int8", "all INT8"), ("auto", "--keep-float auto"), ("first_last", "first+last float"))
        for fig in (
            _f(f"mobilenetv2_050_fm64 {label}: integer vs float top-1",
               f"/results/mobilenetv2_050_fm64/builds/{b}/top1_agreement_integer_vs_float", "accuracy"),
            _f(f"mobilenetv2_050_fm64 {label}: layers kept float",
               f"/results/mobilenetv2_050_fm64/builds/{b}/kept_count", "count"),
            _f(f"mobilenetv2_050_fm64 {label}: edge-10 cycles added", "/results/mobilenetv2_050_fm64/builds/"
               f"{b}/costs/" + _row(target="edge-10") + "/extra_cycles", "cycles"),
        )),
    "parity-ladder": tuple(
        fig for m in ("tinycnn", "resnet20", "mobilenetv2", "vit_tiny") for fig in (
            _f(f"{m}: float top-1", f"/results/{m}/methods/minmax/accuracy_float", "accuracy"),
            _f(f"{m}: integer top-1", f"/results/{m}/methods/minmax/accuracy_integer", "accuracy"),
            _f(f"{m}: output code mismatch", f"/results/{m}/methods/minmax/output_code_mismatch", "ratio"),
        )),
    "partitions": (
        _f("corpus models recomposed", "/results/corpus_recomposition/checked", "count"),
        _f("corpus max |difference|", "/results/corpus_recomposition/max_abs_diff", "error"),
        _f("all recompositions within limit", "/results/recomposition/all_within_limit", "verdict"),
    ),
    "preprocess-doctor": (
        _f("injections", "/results/injections/total/injected", "count"),
        _f("detected with the spec", "/results/injections/total/detected_with_spec", "count"),
        _f("exact with the spec", "/results/injections/total/exact_with_spec", "count"),
        _f("detected blind", "/results/injections/total/detected_blind", "count"),
        _f("false alarms (matched pairs, with the spec)", "/results/matched_pairs/false_alarms_with_spec", "count"),
    ),
    "probes": (
        _f("probes", "/results/probes/summary/probes", "count"),
        _f("accepted by onnxruntime", "/results/probes/summary/accepted", "count"),
        _f("failed", "/results/probes/summary/failed", "count"),
    ),
    "pruning": (
        _f("resnet20: unpruned top-1", "/results/resnet20/accuracy_unpruned", "accuracy"),
        _f("mobilenetv2: unpruned top-1", "/results/mobilenetv2/accuracy_unpruned", "accuracy"),
        _f("resnet20 on edge-10: baseline cycles", "/results/resnet20_baseline_cost/edge-10/cycles", "cycles"),
        _f("mobilenetv2 on edge-10: baseline cycles", "/results/mobilenetv2_baseline_cost/edge-10/cycles", "cycles"),
    ),
    "ptq-methods": (
        _f("resnet20 minmax: INT8 top-1",
           _PTQ + _row(model="resnet20", method="minmax", weights="per-channel") + "/int8_accuracy", "accuracy"),
        _f("resnet20 entropy: INT8 top-1",
           _PTQ + _row(model="resnet20", method="entropy", weights="per-channel") + "/int8_accuracy", "accuracy"),
        _f("resnet20 QAT: INT8 top-1",
           _PTQ + _row(model="resnet20", method="qat", weights="per-channel") + "/int8_accuracy", "accuracy"),
        _f("mobilenetv2 minmax: INT8 top-1",
           _PTQ + _row(model="mobilenetv2", method="minmax", weights="per-channel") + "/int8_accuracy", "accuracy"),
        _f("mobilenetv2 entropy: INT8 top-1",
           _PTQ + _row(model="mobilenetv2", method="entropy", weights="per-channel") + "/int8_accuracy", "accuracy"),
    ),
    "realworld-corpus": (
        _f("all sanity checks pass", "/results/summary/all_checks_ok", "verdict"),
    ),
    "zoo-training": (
        _f("tinycnn: test top-1 (ONNX)", _ZOO + _row(model="tinycnn") + "/onnx_accuracy", "accuracy"),
        _f("resnet20: test top-1 (ONNX)", _ZOO + _row(model="resnet20") + "/onnx_accuracy", "accuracy"),
        _f("mobilenetv2: test top-1 (ONNX)", _ZOO + _row(model="mobilenetv2") + "/onnx_accuracy", "accuracy"),
        _f("vit_tiny: test top-1 (ONNX)", _ZOO + _row(model="vit_tiny") + "/onnx_accuracy", "accuracy"),
        _f("detector: mAP@0.5 (ONNX)", "/results/detector/rows/" + _row(model="detector") + "/onnx_map50", "accuracy"),
        _f("detector meets its target",
           "/results/detector/rows/" + _row(model="detector") + "/meets_target", "verdict"),
    ),
}

# Specs with a ``kind`` share a layout: their figures come by kind when the id is not listed above.
KIND_FIGURES: dict[str, tuple[KeyFigure, ...]] = {
    "model-report": (
        _f("all sanity checks pass", "/results/checks/all_ok", "verdict"),
        _f("ONNX nodes", "/results/graph/node_count", "count"),
    ),
}


def figures_for(exp_id: str, doc: Mapping[str, Any] | None = None) -> tuple[KeyFigure, ...]:
    """The key figures of an experiment: its own, else those of its spec's kind (from ``doc``), else none."""
    if exp_id in KEY_FIGURES:
        return KEY_FIGURES[exp_id]
    kind = str(((doc or {}).get("spec") or {}).get("kind") or "")
    return KIND_FIGURES.get(kind, ())
