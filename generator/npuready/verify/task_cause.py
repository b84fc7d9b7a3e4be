"""Why a task metric (dense, sequence, detection, regression) fails the gate: the arithmetic's doing or the
quantised model's, in one line — the counterpart of ``verify.margins.cause`` for heads that are not
classifiers.

- the integer engine differs from LiteRT's reference kernels → arithmetic (the engine);
- the integer rung's task result departs from fake-quant's (the same QDQ model in float) → the int8
  kernels' fixed-point steps (or the engine, when LiteRT was not checked);
- fake-quant itself departs from float → the quantisation as stored (scales, calibration): the activations
  where the departure from float (``verify.drift``, relative error, graph order) grows most are named;
- only a refused rung → the build: the rung's reason, and how the rungs that ran score.
"""
from __future__ import annotations

WORST = 3  # activations named


def growth(drift) -> list[tuple[float, object]]:
    """(growth, drift row) per activation: its relative error minus the largest one before it in graph order,
    largest growth first (ties in graph order)."""
    rows, seen = [], 0.0
    for i, d in enumerate(drift):
        err = d.relative_error
        if err != err:  # NaN: nothing to say
            continue
        rows.append((err - seen, i, d))
        seen = max(seen, err)
    rows.sort(key=lambda r: (-r[0], r[1]))
    return [(g, d) for g, _, d in rows if g > 0]


def _worst(drift) -> str:
    rows = growth(drift)[:WORST]
    if not rows:
        return ""
    return "; the departure from float grows most at " + ", ".join(
        f"{d.tensor}{f' ({d.producer})' if d.producer else ''} +{g:.3g} to {d.relative_error:.3g}" for g, d in rows)


def cause(result, litert_mismatched: int | None) -> str:
    task = result.task_name
    scores = result.task_scores
    checked = ("the integer engine matches LiteRT's reference kernels on every tensor" if litert_mismatched == 0
               else "integer ⇄ LiteRT not checked (add --litert)")
    if litert_mismatched:
        return (f"arithmetic: {litert_mismatched} int8 tensors differ from LiteRT's reference kernels on identical "
                "inputs; the integer engine computes something TFLite does not")
    fq, i_fq, i_f = (scores.get(k) for k in ("fake_quant_vs_float", "integer_vs_fake_quant", "integer_vs_float"))
    if i_fq is not None and not i_fq.passed:
        who = ("int8 kernels, not the engine" if litert_mismatched == 0 else "arithmetic")
        return (f"{who}: the integer rung's {task} result departs from fake-quant's (the same QDQ model in float): "
                f"{i_fq.metric} {i_fq.shown()} < {i_fq.limit:g}; {checked}")
    if fq is not None and not fq.passed:
        agree = f"; the integer engine agrees with fake-quant ({i_fq.metric} {i_fq.shown()})" if i_fq else ""
        return (f"model quantisation: the QDQ model as stored already departs from float on the {task} result "
                f"({fq.metric} fake-quant vs float {fq.shown()} < {fq.limit:g}){agree}{_worst(result.drift)}; "
                f"{checked}")
    if i_f is not None and not i_f.passed:
        return (f"arithmetic and quantisation together: fake-quant and the integer rung each stay near their "
                f"reference, yet the integer rung's {task} result departs from float ({i_f.metric} {i_f.shown()})"
                f"{_worst(result.drift)}; {checked}")
    if result.refused:
        ran = ", ".join(f"{k} {v.metric} {v.shown()}" for k, v in scores.items()) or "no rung pair could be scored"
        rungs = " and ".join(r.replace("_", "-") for r in result.refused)
        return (f"build: the {rungs} rung{'s' if len(result.refused) > 1 else ''} did not run (reason above), so the "
                f"{task} result of the NPU build is unknown; {ran}")
    return f"no {task} metric below its limit; {checked}"
