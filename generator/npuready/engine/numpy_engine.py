"""The NumPy integer engine: runs an ``IntGraph`` on a batch and returns every int8 tensor."""
from __future__ import annotations

import numpy as np

from npuready.engine.intgraph import IntGraph, IntOp
from npuready.engine.ops import KERNELS
from npuready.engine.runner import run_graph


def run_op(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    """One op on given int8 inputs (used for local, identical-input comparisons too)."""
    return KERNELS[op.kind].run(op, inputs)


def run(graph: IntGraph, x: np.ndarray, keep: bool = True) -> dict[str, np.ndarray]:
    """Run ``graph`` on ``x`` (float N×..., or int8 codes of the quantised input).

    Returns {tensor name: int8 codes} for every tensor when ``keep`` (else only the outputs).
    """
    return run_graph(graph, x, run_op, keep)
