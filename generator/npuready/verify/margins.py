"""Why a quantised classifier's top-1 flips: the float model's logit margins against the INT8 logit step.

A flip (quantised top-1 ≠ float top-1) on an image whose float top-1/top-2 gap is below one quantisation
step of the int8 logits is a near-tie the int8 output grid cannot resolve, whatever the arithmetic: the
model's logits (random weights often give them) are the cause. Flips at margins of many steps are not
explained by the output grid: the quantised model departs from float upstream. Which arithmetic computed
the int8 codes is a separate question, answered by integer ⇄ fake-quant and integer ⇄ LiteRT agreement.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

#: margins (in logit steps) at which flips are counted
STEPS = (1, 2, 4)


@dataclass(frozen=True)
class MarginStats:
    images: int
    logit_step: float            # the int8 scale of the logits (one LSB)
    margin_p10_steps: float      # float top-1 − top-2 gap, 10th percentile, in logit steps
    margin_median_steps: float
    near_ties: int               # images whose float gap is below one logit step
    flips: int                   # quantised top-1 ≠ float top-1
    flips_below: dict            # steps -> flips whose float gap is below that many steps
    agreement: float             # top-1 agreement quantised vs float

    def to_dict(self) -> dict:
        d = asdict(self)
        d["flips_below"] = {str(k): v for k, v in self.flips_below.items()}
        return d

    @property
    def flips_near_tie(self) -> int:
        return self.flips_below[1]


def margin_stats(float_logits: np.ndarray, quant_logits: np.ndarray, logit_step: float) -> MarginStats:
    """Margins of ``float_logits`` (N×classes) and the flips of ``quant_logits`` (dequantised) against them."""
    n = len(float_logits)
    f = np.asarray(float_logits, np.float64).reshape(n, -1)
    q = np.asarray(quant_logits, np.float64).reshape(n, -1)
    top2 = np.sort(f, axis=1)[:, -2:] if f.shape[1] > 1 else np.zeros((n, 2))
    gap = (top2[:, 1] - top2[:, 0]) / float(logit_step)
    flip = f.argmax(1) != q.argmax(1)
    return MarginStats(int(n), float(logit_step),
                       float(np.percentile(gap, 10)) if n else 0.0, float(np.median(gap)) if n else 0.0,
                       int((gap < 1).sum()), int(flip.sum()),
                       {k: int((flip & (gap < k)).sum()) for k in STEPS},
                       float(1 - flip.mean()) if n else 1.0)


def cause(stats: MarginStats | None, integer_vs_fake_quant: float | None, litert_mismatched: int | None) -> str:
    """One line: is a failing agreement the arithmetic's doing or the model's?"""
    if litert_mismatched:
        return (f"arithmetic: {litert_mismatched} int8 tensors differ from LiteRT's reference kernels on identical "
                "inputs; the integer engine computes something TFLite does not")
    checked = ("the integer engine matches LiteRT's reference kernels on every tensor"
               if litert_mismatched == 0 else "integer ⇄ LiteRT not checked (add --litert)")
    if integer_vs_fake_quant is not None and integer_vs_fake_quant < 0.9 and litert_mismatched == 0:
        return (f"int8 kernels, not the engine: the integer engine computes exactly what LiteRT's reference "
                f"kernels compute (0 tensors differ), yet agrees with fake-quant (the same QDQ model in float) on "
                f"only {integer_vs_fake_quant:.1%} of top-1 predictions: this model is sensitive to the int8 "
                "kernels' fixed-point steps (requantisation, integer means, fixed-point Softmax) that fake-quant's "
                "float simulation does not reproduce")
    if integer_vs_fake_quant is not None and integer_vs_fake_quant < 0.9:
        return (f"arithmetic: the integer engine agrees with fake-quant (the same QDQ model in float) on only "
                f"{integer_vs_fake_quant:.1%} of top-1 predictions; {checked}")
    if stats is None or stats.flips == 0:
        return f"no top-1 flips against float; {checked}"
    near = stats.flips_near_tie
    if 2 * near >= stats.flips:
        return (f"model: {near} of {stats.flips} flips are near-ties (float top-1/top-2 gap below one int8 logit step "
                f"of {stats.logit_step:.4g}; median gap {stats.margin_median_steps:.1f} steps, {stats.near_ties} of "
                f"{stats.images} images near-tied): the logits cannot be told apart on the int8 grid; {checked}")
    return (f"model quantisation: {stats.flips - near} of {stats.flips} flips have a float gap of at least one "
            f"int8 logit step (median gap {stats.margin_median_steps:.1f} steps): the quantised model departs from "
            f"float upstream (scales, calibration), while the arithmetic agrees with fake-quant"
            + (f" ({integer_vs_fake_quant:.1%} of top-1)" if integer_vs_fake_quant is not None else "")
            + f"; {checked}")
