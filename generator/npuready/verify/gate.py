"""The deployment gate: every quantised rung is compared with float, and the gate fails (exit 1) when one the
artefact depends on falls below its limits.

The rungs: fake-quant is the QDQ file as stored (onnxruntime), integer is what the NPU build computes (the
integer engine). Each must reach, for a classifier, ``min_agreement`` top-1 agreement with float and, with
labels, lose at most ``max_accuracy_drop`` accuracy; for another task (``verify.tasks``: dense, sequence,
detection, regression) its task metric must reach ``task_limit`` (None: the metric's own tolerance); a rung that could
not run at all (a stored scale the integer export refuses, a QDQ file onnxruntime cannot run) fails the gate with its
reason. When the gate fails, the first tensor where the QDQ model departs grossly from float is named
(``verify.drift``).
"""
from __future__ import annotations

from dataclasses import dataclass

from npuready.verify.drift import describe
from npuready.verify.margins import cause as failure_cause

#: rung key -> how reports name it
RUNGS = {"fake_quant": "fake-quant (the QDQ file as stored)", "integer": "integer (the NPU build)"}


@dataclass(frozen=True)
class GateLimits:
    min_agreement: float = 0.99   # top-1 agreement of each quantised rung with float
    max_accuracy_drop: float = 0.01  # float accuracy - rung accuracy (absolute), per quantised rung
    task_limit: float | None = None  # other tasks: the metric's limit (None: the metric's stated tolerance)


@dataclass(frozen=True)
class GateVerdict:
    passed: bool
    reasons: tuple[str, ...]
    cause: str | None = None  # a failing gate: the arithmetic's doing or the model's (``verify.margins.cause``)

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1


def gate(result, limits: GateLimits, litert: dict | None = None, require_bitexact: bool = True) -> GateVerdict:
    """Verdict on a ladder result; ``litert`` (an oracle summary) explains the cause of a failure and, with
    ``require_bitexact``, adds a bit-exactness requirement."""
    reasons = [f"{RUNGS[rung]} rung did not run: {why}" for rung, why in result.refused.items()]
    classifier = result.task_name == "classification"
    for rung, label in RUNGS.items():
        agree = result.agreement.get(f"{rung}_vs_float")
        score = result.task_scores.get(f"{rung}_vs_float")
        if not classifier:
            score = score if score is None or limits.task_limit is None else score.at(limits.task_limit)
            if score is not None and not score.passed:
                reasons.append(f"{result.task_name} {score.metric} {rung.replace('_', '-')} vs float {score.shown()} "
                               f"< limit {score.limit:g}")
        elif agree is not None and agree < limits.min_agreement:
            reasons.append(f"top-1 agreement {rung.replace('_', '-')} vs float {agree:.4f} < limit "
                           f"{limits.min_agreement:.4f}")
        if result.accuracy and rung in result.accuracy:
            drop = result.accuracy["float"] - result.accuracy[rung]
            if drop > limits.max_accuracy_drop + 1e-9:  # 0.90 - 0.89 is 0.0100000000000000089 in binary
                reasons.append(f"accuracy drop float → {rung.replace('_', '-')} {drop:.4f} > limit "
                               f"{limits.max_accuracy_drop:.4f}")
    if require_bitexact and litert is not None and litert["tensors_mismatched"]:
        reasons.append(f"{litert['tensors_mismatched']} of {litert['tensors_compared']} tensors differ from LiteRT's "
                       "reference kernels")
    gross = result.first_gross
    if reasons and gross is not None:
        reasons.append(describe(gross))
    why = None
    if reasons and not classifier:
        from npuready.verify.task_cause import cause as task_cause

        why = task_cause(_judged(result, limits), None if litert is None else litert["tensors_mismatched"])
    elif reasons and "integer" not in result.refused:
        why = failure_cause(result.margins, result.agreement.get("integer_vs_fake_quant"),
                            None if litert is None else litert["tensors_mismatched"])
    return GateVerdict(not reasons, tuple(reasons), why)


def _judged(result, limits: GateLimits):
    """``result`` with its task scores judged at the gate's task limit."""
    if limits.task_limit is None:
        return result
    from dataclasses import replace

    return replace(result, task_scores={k: v.at(limits.task_limit) for k, v in result.task_scores.items()})
