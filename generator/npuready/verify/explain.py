"""Plain-words explanation of a ladder result: why final outputs can agree while tensors differ — and when
they cannot, that the disagreement is gross (a broken model or build, not arithmetic order)."""
from __future__ import annotations

from npuready.verify.drift import describe

#: below this top-1 agreement between any two rungs the disagreement is gross, whatever the code differences
GROSS_AGREEMENT = 0.9

KIND_CAUSE = {
    "Conv": "the integer path accumulates exactly in int32 and requantises with a fixed-point multiplier "
            "(M0·2^shift), while fake-quant computes the convolution in float32 and rounds once at QuantizeLinear",
    "Gemm": "exact int32 accumulation plus fixed-point requantisation versus float32 accumulation and one rounding",
    "Add": "each input is rescaled to a common scale with its own fixed-point multiplier before the sum, "
           "so two roundings happen where fake-quant has one",
    "Mul": "the product is requantised by a fixed-point multiplier instead of a float multiply",
    "Mean": "the mean folds 1/(H·W) into an integer multiplier (truncating division) instead of a float average",
    "AveragePool": "the window mean is an integer division with its own rounding",
    "Lut": "the activation is a 256-entry table (TFLite's fixed-point LOGISTIC/TANH/LeakyRelu, or built once from "
           "the float function) instead of the float function rounded once",
    "MatMul": "exact int32 accumulation of two int8 operands plus fixed-point requantisation",
    "Softmax": "TFLite's fixed-point exponentials and reciprocal (gemmlowp) replace float exp and division",
    "LayerNorm": "mean and variance are integer sums and the square root is an exact integer square root, "
                 "with gamma and beta folded into fixed-point constants",
    "Concat": "inputs with a different scale are requantised with an integer multiplier",
    "Rescale": "requantisation with a fixed-point multiplier",
}


def _low(result) -> dict[str, str]:
    """Pairs whose agreement is gross: top-1 below ``GROSS_AGREEMENT`` for a classifier, otherwise the task
    metric below its ``gross_below`` (pair -> value as shown)."""
    if getattr(result, "task_name", "classification") == "classification":
        return {k: f"{v:.1%}" for k, v in sorted(result.agreement.items()) if v < GROSS_AGREEMENT}
    from npuready.verify.tasks.registry import get

    floor = get(result.task_name).gross_below
    return {k: v.shown() for k, v in sorted(result.task_scores.items()) if v.value < floor}


def _metric(task: str) -> str:
    from npuready.verify.tasks.registry import get

    return get(task).metric


def gross(result) -> bool:
    """A disagreement no rounding order explains: a rung did not run, a tensor departs grossly from float,
    or two rungs agree on fewer than ``GROSS_AGREEMENT`` of top-1 predictions (another task: its metric
    falls below the metric's ``gross_below``)."""
    return bool(result.refused or result.first_gross is not None or _low(result))


def explain(result) -> list[str]:
    from npuready.verify.gate import RUNGS

    lines: list[str] = [f"The {RUNGS[rung]} rung did not run: {why}." for rung, why in result.refused.items()]
    is_gross = gross(result)
    g = result.first_gross
    low = _low(result)
    classifier = getattr(result, "task_name", "classification") == "classification"
    measure = "top-1 agreement" if classifier else f"{result.task_name} {_metric(result.task_name)}"
    if g is not None or low:
        lines.append("This is a gross disagreement, not a difference in rounding order: "
                     + (describe(g) if g is not None else
                        measure + " " + ", ".join(f"{k} {v}" for k, v in low.items())) + ".")
    agree = result.agreement.get("integer_vs_fake_quant", 1.0)
    task_agree = result.task_scores.get("integer_vs_fake_quant")
    changed = [t for t in result.tensors if t.mismatch_propagated > 0]
    local = [t for t in result.tensors if (t.mismatch_local or 0) > 0]
    if not result.tensors:
        return lines
    if not changed:
        lines.append("Every int8 tensor of the integer engine equals the fake-quant codes: the two paths are "
                     "bit-identical on these inputs.")
        return lines
    worst = max(changed, key=lambda t: t.mismatch_propagated)
    same = (f"top-1 predictions agree on {agree:.1%} of images" if classifier or task_agree is None else
            f"the {result.task_name} metric ({task_agree.metric}) of integer vs fake-quant is {task_agree.shown()}")
    lines.append(f"{len(changed)} of {len(result.tensors)} int8 tensors differ somewhere between the integer engine "
                 f"and fake-quant (worst: {worst.tensor}, {worst.mismatch_propagated:.1%} of codes, "
                 f"up to {worst.max_abs_propagated} LSB), while {same}.")
    if local:
        kinds = sorted({t.kind for t in local})
        lines.append("Where each op is fed identical inputs, differences still appear at "
                     f"{len(local)} ops ({', '.join(kinds)}): these are the sources — the arithmetic differs, "
                     "not the model.")
        for k in kinds:
            if k in KIND_CAUSE:
                lines.append(f"- {k}: {KIND_CAUSE[k]}.")
    spread = [t for t in changed if (t.mismatch_local or 0) == 0 and t.kind != "Quantize"]
    if spread:
        lines.append(f"{len(spread)} ops compute exactly the same codes from identical inputs, yet their outputs "
                     "differ end to end: they only carry differences produced upstream (propagation).")
    lsb = max(t.max_abs_propagated for t in changed)
    size = '1 LSB' if lsb == 1 else f'up to {lsb} LSB'
    if is_gross:
        lines.append(f"Code differences of {size} here are symptoms of that gross disagreement, not rounding: "
                     "fix the model or its quantisation before reading them as arithmetic differences.")
    else:
        lines.append(f"Disagreements of {size} like these are numerical semantics, not errors: both paths "
                     "implement the same quantised model but accumulate and round in a different order, and "
                     + ("classification survives them when the logit margin exceeds a few LSB." if classifier else
                        f"the {result.task_name} result survives them while its metric stays above its limit."))
    if result.first_divergence:
        lines.append(f"The first op whose output moves by more than 1 LSB is {result.first_divergence}; "
                     "inspect it first if accuracy drops.")
    return lines
