"""The deployment gate: exit 1 when top-1 agreement or the accuracy drop crosses configurable limits."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GateLimits:
    min_agreement: float = 0.99   # integer vs float top-1 agreement
    max_accuracy_drop: float = 0.01  # float accuracy - integer accuracy (absolute)


@dataclass(frozen=True)
class GateVerdict:
    passed: bool
    reasons: tuple[str, ...]

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1


def gate(result, limits: GateLimits, litert: dict | None = None) -> GateVerdict:
    """Verdict on a ladder result; ``litert`` (an oracle summary) adds a bit-exactness requirement."""
    reasons = []
    agree = result.agreement["integer_vs_float"]
    if agree < limits.min_agreement:
        reasons.append(f"top-1 agreement integer vs float {agree:.4f} < limit {limits.min_agreement:.4f}")
    if result.accuracy:
        drop = result.accuracy["float"] - result.accuracy["integer"]
        if drop > limits.max_accuracy_drop:
            reasons.append(f"accuracy drop {drop:.4f} > limit {limits.max_accuracy_drop:.4f}")
    if litert is not None and litert["tensors_mismatched"]:
        reasons.append(f"{litert['tensors_mismatched']} of {litert['tensors_compared']} tensors differ from LiteRT's "
                       "reference kernels")
    return GateVerdict(not reasons, tuple(reasons))
