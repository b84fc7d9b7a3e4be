"""The NumPy integer engine: runs an ``IntGraph`` on a batch and returns every int8 tensor."""
from __future__ import annotations

from typing import Mapping

import numpy as np

from npuready.engine.intgraph import IntGraph, IntOp
from npuready.engine.ops import KERNELS
from npuready.errors import InputError


def run_op(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    """One op on given int8 inputs (used for local, identical-input comparisons too)."""
    return KERNELS[op.kind].run(op, inputs)


def run(graph: IntGraph, x: np.ndarray, keep: bool = True) -> dict[str, np.ndarray]:
    """Run ``graph`` on ``x`` (float N×..., or int8 codes of the quantised input).

    Returns {tensor name: int8 codes} for every tensor when ``keep`` (else only the outputs).
    """
    x = np.asarray(x)
    if x.ndim != len(graph.input_shape) or tuple(x.shape[1:]) != tuple(graph.input_shape[1:]):
        raise InputError(f"input {graph.input}: shape {tuple(x.shape)} does not match the graph's "
                         f"{tuple(graph.input_shape)} (any batch size allowed)")
    values: dict[str, np.ndarray] = {graph.input: x}
    for op in graph.ops:
        values[op.outputs[0]] = run_op(op, [values[i] for i in op.inputs])
    if keep:
        values.pop(graph.input)
        return values
    return {o: values[o] for o in graph.outputs}


def outputs_float(graph: IntGraph, values: Mapping[str, np.ndarray]) -> list[np.ndarray]:
    return [graph.dequantize(o, values[o]) for o in graph.outputs]
