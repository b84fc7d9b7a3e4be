"""Graph execution shared by both engines: feed the input, run ops in order, keep every int8 tensor.

Graphs whose ops keep axis 0 as the batch run all images at once; graphs that move or index the
batch axis (``IntGraph.batchable`` False, e.g. attention's qkv split) run image by image.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from npuready.engine.intgraph import IntGraph, IntOp
from npuready.errors import InputError


def check_input(graph: IntGraph, x: np.ndarray) -> None:
    if x.ndim != len(graph.input_shape) or tuple(x.shape[1:]) != tuple(graph.input_shape[1:]):
        raise InputError(f"input {graph.input}: shape {tuple(x.shape)} does not match the graph's "
                         f"{tuple(graph.input_shape)} (any batch size allowed)")


def run_graph(graph: IntGraph, x: np.ndarray, run_op: Callable[[IntOp, list], np.ndarray],
              keep: bool = True) -> dict[str, np.ndarray]:
    x = np.asarray(x)
    check_input(graph, x)
    if not graph.batchable and len(x) != 1:
        parts = [run_graph(graph, x[i:i + 1], run_op, keep) for i in range(len(x))]
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]} if parts else {}
    values: dict[str, np.ndarray] = {graph.input: x}
    for op in graph.ops:
        values[op.outputs[0]] = run_op(op, [values[i] for i in op.inputs])
    if keep:
        values.pop(graph.input)
        for op in graph.ops:  # constants carry no batch axis: not a per-image tensor
            if op.kind == "Constant":
                values.pop(op.outputs[0])
        return values
    return {o: values[o] for o in graph.outputs}


def run_op_per_image(graph: IntGraph, run_op: Callable[[IntOp, list], np.ndarray], op: IntOp,
                     inputs: list[np.ndarray], images: int, constants=()) -> np.ndarray:
    """Run one op on stacked per-image inputs (as ``run_graph`` returns them), image by image when needed."""
    if graph.batchable or images == 1:
        return run_op(op, inputs)
    split = [[x] * images if name in constants else np.split(x, images) for name, x in zip(op.inputs, inputs)]
    return np.concatenate([run_op(op, [s[i] for s in split]) for i in range(images)])
