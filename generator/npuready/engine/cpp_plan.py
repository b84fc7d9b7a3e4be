"""The C++ twin's per-graph plan: arguments prepared once per (graph, input shape), then replayed.

Per image and op, the kernels in ``cpp_engine`` spend more time arranging a call in Python (ctypes argument
checks, buffer allocation, scalar lists) than the C++ kernel spends on small tensors (MobileNetV2 at batch 1).
A plan runs the graph once while recording every C++ call each kernel makes (``cpp_engine.recording``):
symbol, arrays and scalars. The tensors of that run stay allocated in the plan; later runs of the same graph
at the same input shape copy the input into the plan's input buffer and call each recorded C++ function
again with the same pointers and scalars (a pre-bound ctypes call per kernel call, no per-call array checks
or allocation), so the same C++ code computes the same integers on the new data.

An op is replayed only when every array its kernel hands to C++ is an input tensor of the op, a buffer an
earlier call of the same op wrote, or derived from the op's constants — never a Python-side copy of an input
(that copy would be stale on the next run). ``replayable`` lists those conditions per kind (inputs contiguous
int8; MatMul without broadcasting; Mean over trailing axes; Softmax over the last axis). Every other
op (Slice, Pad, nearest Resize, a kept-float layer, a broadcasting MatMul) runs its kernel as before on the
plan's tensors and its result is copied into the plan's buffer for it. Returned tensors are copies: the plan
reuses its buffers on the next run. A plan in use by another thread is not shared: that run takes the
direct path (``runner.run_graph``). Kept plans hold one batch's tensors for as long as the graph lives, so a
plan is kept only when its first run asks for the outputs alone (``keep=False``, the repeated-inference
case) and its tensors take at most ``PLAN_BYTES``; otherwise the recorded run hands its buffers to the caller
and is dropped (memory as without plans). A kept plan also serves later ``keep=True`` runs.
"""
from __future__ import annotations

import ctypes as C
import threading
import weakref
from functools import partial
from typing import Callable

import numpy as np

from npuready.engine.intgraph import IntGraph, IntOp

#: op kinds whose kernels pass C++ only inputs, constants and their own outputs (under ``replayable``'s checks)
REPLAYED = {"Quantize", "Conv", "Gemm", "Add", "Mul", "Concat", "MaxPool", "AveragePool", "Mean", "Reshape",
            "Transpose", "Rescale", "Lut", "Gather", "MatMul", "Softmax", "LayerNorm", "Constant", "PRelu",
            "ResizeBilinear", "BatchNorm", "ConvTranspose"}
PLANS_PER_GRAPH = 2  # input shapes kept per graph (e.g. a chunk size and the last, shorter chunk)
PLAN_BYTES = 64 << 20  # a plan whose tensors take more is run once and not kept (large batches)


def replayable(op: IntOp, xs: list[np.ndarray], constants: set[int]) -> bool:
    """True when ``op``'s kernel, given ``xs``, hands C++ no Python-side copy of an input (``constants``: the
    positions of inputs that are graph constants, which may be copied freely)."""
    if op.kind not in REPLAYED:
        return False
    for i, x in enumerate(xs):
        if i in constants:
            continue
        ok_dtype = x.dtype == np.int8 or (op.kind == "Quantize" and x.dtype == np.float32)
        if not (ok_dtype and x.flags.c_contiguous):
            return False
    if op.kind in ("Add", "Mul"):
        return xs[0].shape == xs[1].shape
    if op.kind == "MatMul":
        return xs[0].ndim == xs[1].ndim and xs[0].shape[:-2] == xs[1].shape[:-2]
    if op.kind == "Mean":
        axes = sorted(a % xs[0].ndim for a in op.params["axes"])
        return axes == list(range(xs[0].ndim - len(axes), xs[0].ndim))
    if op.kind == "Softmax":
        return op.params.get("axis", xs[0].ndim - 1) % xs[0].ndim == xs[0].ndim - 1
    return True


def _owns(buffers: list[np.ndarray], y: np.ndarray) -> bool:
    return any(np.may_share_memory(y, b) for b in buffers)


class Plan:
    """The recorded run of one graph at one input shape and dtype (see the module docstring)."""

    def __init__(self, graph: IntGraph, x: np.ndarray, run_op: Callable, recording, raw_library):
        self.graph = graph
        self.lock = threading.Lock()
        self.input = np.array(x, order="C")
        values: dict[str, np.ndarray] = {graph.input: self.input}
        const_names = {op.outputs[0] for op in graph.ops if op.kind == "Constant"}
        self.steps: list = []
        self.keep_alive: list = []
        self.replayed: list[str] = []  # op names whose C++ calls are replayed
        self.direct: list[str] = []  # op names whose kernels run from Python on every run
        for op in graph.ops:
            xs = [values[i] for i in op.inputs]
            consts = {i for i, name in enumerate(op.inputs) if name in const_names}
            if op.kind in ("Add", "Mul") and xs[0].shape != xs[1].shape:
                xs = self._broadcast(xs, consts)
            if replayable(op, xs, consts):
                with recording() as calls:
                    y = run_op(op, xs)
                written = [args[-1] for _, args in calls]
                if op.kind == "Constant" or _owns(written + [x for x in xs if x.dtype == np.int8], y):
                    self.steps.extend(self._bind(raw_library, calls))
                    self.replayed.append(op.name)
                    values[op.outputs[0]] = y
                    continue
            else:
                y = run_op(op, xs)
            buf = np.array(y, order="C")  # a fixed home for a result the kernel allocates per run
            self.steps.append(partial(_into, buf, run_op, op, xs))
            self.direct.append(op.name)
            values[op.outputs[0]] = buf
        self.values = values
        self.constants = const_names

    def _broadcast(self, xs: list[np.ndarray], consts: set[int]) -> list[np.ndarray]:
        """Both operands at the broadcast shape in plan buffers: a constant is broadcast once, a tensor by a
        step before the op on every run (what ``cpp_engine._broadcast8`` does per call)."""
        shape = np.broadcast_shapes(xs[0].shape, xs[1].shape)
        out = []
        for i, v in enumerate(xs):
            if v.shape != shape and v.dtype == np.int8:
                full = np.empty(shape, np.int8)
                full[...] = v
                if i not in consts:
                    self.steps.append(partial(np.copyto, full, v))
                v = full
            out.append(v)
        return out

    def _bind(self, raw_library, calls) -> list:
        out = []
        for symbol, args in calls:
            self.keep_alive.append(args)
            bound = [a.ctypes.data if isinstance(a, np.ndarray) else a for a in args]
            out.append(partial(getattr(raw_library, symbol), *bound))
        return out

    def nbytes(self) -> int:
        """Bytes of the tensors the plan owns (what keeping it holds on to)."""
        return sum(v.nbytes for v in self.values.values() if v.flags.owndata)

    def result(self, keep: bool, copy: bool = True) -> dict[str, np.ndarray]:
        """The tensors ``runner.run_graph`` returns: copies (the plan's buffers are reused), or the buffers
        themselves (``copy=False``: a plan that is not kept)."""
        take = np.copy if copy else (lambda v: v)
        if keep:
            return {name: take(v) for name, v in self.values.items()
                    if name != self.graph.input and name not in self.constants}
        return {o: take(self.values[o]) for o in self.graph.outputs}

    def run(self, x: np.ndarray, keep: bool) -> dict[str, np.ndarray]:
        np.copyto(self.input, x)
        for step in self.steps:
            step()
        return self.result(keep)


def _into(buf: np.ndarray, run_op: Callable, op: IntOp, xs: list) -> None:
    np.copyto(buf, run_op(op, xs))


_PLANS: dict[int, tuple[weakref.ref, dict]] = {}
_PLANS_LOCK = threading.Lock()


def run(graph: IntGraph, x: np.ndarray, keep: bool, run_op: Callable, recording, raw_library,
        fallback: Callable) -> dict[str, np.ndarray]:
    """One batch through ``graph`` (shape already checked; batch-1 for graphs that are not batchable) by its
    plan for this input shape, built (and run) on the first call; ``fallback`` when that plan is busy."""
    key = (tuple(x.shape), x.dtype.str)
    with _PLANS_LOCK:
        ref, plans = _PLANS.get(id(graph), (None, None))
        if ref is None or ref() is not graph:
            plans = {}
            _PLANS[id(graph)] = (weakref.ref(graph), plans)
            weakref.finalize(graph, _PLANS.pop, id(graph), None)
        plan = plans.get(key)
    if plan is None:
        plan = Plan(graph, x, run_op, recording, raw_library)  # runs x on the way
        if keep or plan.nbytes() > PLAN_BYTES:  # not kept: the caller gets its buffers, memory as without plans
            return plan.result(keep, copy=False)
        with plan.lock:
            with _PLANS_LOCK:
                if len(plans) >= PLANS_PER_GRAPH:
                    plans.pop(next(iter(plans)))
                plans[key] = plan
            return plan.result(keep)
    if not plan.lock.acquire(blocking=False):
        return fallback()
    try:
        return plan.run(x, keep)
    finally:
        plan.lock.release()


def pointer_array(parts: list[np.ndarray]):
    """A C array of the parts' data pointers that keeps the parts alive as long as it lives."""
    ptrs = (C.c_void_p * len(parts))(*[q.ctypes.data for q in parts])
    ptrs.parts = parts
    return ptrs
