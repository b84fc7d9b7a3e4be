"""HardSigmoid's attributes as its converter lowering reads them, shared by the rewrite and the cost model.

``HardSigmoid(x) = clip(αx + β, 0, 1) = relu6(6αx + 6β) / 6``; the multiply by ``6α`` is left out when it is 1
in float32 (PyTorch's Hardsigmoid: α = 1/6), so ``quant.decompose_hardsigmoid`` and ``cost.lowering`` must
agree on that test: both call ``scales_input``.
"""
from __future__ import annotations

import numpy as np

DEFAULT_ALPHA, DEFAULT_BETA = 0.2, 0.5  # the ONNX operator's defaults


def scales_input(alpha: float) -> bool:
    """Does the lowering need a Mul by ``6α`` before the shift (is ``6α`` not 1 in float32)?"""
    return np.float32(6 * np.float32(alpha)) != np.float32(1)
