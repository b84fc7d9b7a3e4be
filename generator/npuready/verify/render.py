"""Rendering of a ladder result + gate verdict: text for people, JSON for machines (data stays data)."""
from __future__ import annotations

from npuready.atomic import dumps_json
from npuready.terminal import block


def to_json(result, verdict, limits, litert: dict | None = None) -> str:
    doc = {"result": result.to_dict(), "gate": {"passed": verdict.passed, "reasons": list(verdict.reasons),
                                                "cause": verdict.cause, "limits": limits.__dict__,
                                                "task": result.task_name, "exit_code": verdict.exit_code},
           "evidence": "measured"}
    if litert is not None:
        doc["litert_reference"] = litert
    return dumps_json(doc)


def _litert_lines(litert: dict) -> list[str]:
    bad = [r for r in litert["ops"] if r["mismatched_propagated"] or r["mismatched_local"]]
    lines = [f"LiteRT BUILTIN_REF cross-check: {litert['tensors_compared'] - litert['tensors_mismatched']} of "
             f"{litert['tensors_compared']} tensors bit-identical over {litert['images']} images "
             f"({litert['elements_mismatched_propagated']} of {litert['elements_compared']} codes differ end to end, "
             f"{litert['elements_mismatched_local']} locally)"]
    lines += [f"  {r['op']} ({r['kind']}): {r['mismatched_local']} codes differ from identical inputs, "
              f"{r['mismatched_propagated']} end to end" for r in bad]
    skipped = [r["op"] for r in litert["ops"] if not r["compared"]]
    if skipped:
        lines.append(f"  not compared (no LiteRT tensor): {', '.join(skipped)}")
    return lines


def _detail(v) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, dict):
        return ",".join(f"{k}:{_detail(x)}" for k, x in v.items())
    return str(v)


def _task_lines(result, limits) -> list[str]:
    """The task metric per rung pair (a classifier's is the agreement line itself)."""
    if result.task is None:
        return []
    lines = [result.task.line()]
    if result.task_name == "classification":
        return lines
    for pair, score in result.task_scores.items():
        score = score if limits.task_limit is None else score.at(limits.task_limit)
        extra = "  ".join(f"{k}={_detail(v)}" for k, v in score.details.items() if v is not None)
        lines.append(f"{result.task_name:<10} {pair}: {score.metric} {score.shown()} "
                     f"({'pass' if score.passed else 'FAIL'}, limit {score.limit:g})  {extra}")
    return lines


def to_text(result, verdict, limits, litert: dict | None = None, width: int | None = None) -> str:
    """The ladder for people: wrapped to ``width`` columns (default: the terminal's, 80 when not a terminal)."""
    out = [f"parity ladder: {result.model} on {result.images} images (integer engine: {result.engine}, "
           f"rounding profile: {result.rounding_profile})"]
    out.extend(_task_lines(result, limits))
    if result.kept_float:
        out.append(f"mixed build: {len(result.kept_float)} nodes kept float (kind Float: run on the CPU between "
                   f"dequantise and quantise): {', '.join(result.kept_float)}")
    if result.accuracy:
        out.append("accuracy   " + "  ".join(f"{k}={v:.4f}" for k, v in result.accuracy.items()))
    raw = "" if result.task_name == "classification" else " (argmax of the raw first output; not gated for this task)"
    out.append("agreement  " + "  ".join(f"{k}={v:.4f}" for k, v in result.agreement.items()) + raw)
    out.append("")
    out.append(f"{'op':<28} {'kind':<11} {'round':<6} {'propagated':>10} {'local':>8} {'max LSB':>7}")
    for t in result.tensors:
        local = "-" if t.mismatch_local is None else f"{t.mismatch_local:.2%}"
        out.append(f"{t.op[:28]:<28} {t.kind:<11} {t.rounding:<6} {t.mismatch_propagated:>10.2%} {local:>8} "
                   f"{t.max_abs_propagated:>7}")
    out.append("")
    out.append(f"first divergence > 1 LSB: {result.first_divergence or 'none'}")
    out.extend(result.explanation)
    m = result.margins
    if m is not None:
        out.append(f"logit margins (float top-1 − top-2, in int8 logit steps of {m.logit_step:.4g}): 10th percentile "
                   f"{m.margin_p10_steps:.1f}, median {m.margin_median_steps:.1f}; {m.near_ties} of {m.images} images "
                   f"below one step; integer top-1 flips {m.flips}, of which below 1/2/4 steps: "
                   + "/".join(str(v) for v in m.flips_below.values()))
    if litert is not None:
        out.append("")
        out.extend(_litert_lines(litert))
    out.append("")
    if verdict.passed and result.task_name != "classification":
        from npuready.verify.tasks.registry import get

        metric = get(result.task_name)
        limit = metric.tolerance if limits.task_limit is None else limits.task_limit
        out.append(f"GATE PASS ({result.task_name} {metric.metric} >= {limit:g} per quantised rung)")
    elif verdict.passed:
        out.append(f"GATE PASS (agreement >= {limits.min_agreement}, accuracy drop <= {limits.max_accuracy_drop})")
    else:
        out.extend(f"GATE FAIL: {r}" for r in verdict.reasons)
        if verdict.cause:
            out.append(f"GATE CAUSE: {verdict.cause}")
    return block(out, width)
