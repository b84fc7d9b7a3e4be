"""Cross-check the integer engine against LiteRT's reference kernels (BUILTIN_REF), tensor by tensor.

The same QDQ model is exported to INT8 TFLite with its own scales (``npuready.tflite``), both run on
the same int8 input codes, and every int8 tensor of the integer graph is compared with the LiteRT
tensor holding the same ONNX tensor. Two views per op:

- propagated: our engine run end to end vs LiteRT end to end;
- local: our op fed LiteRT's own input tensors vs LiteRT's output (isolates the op's arithmetic).

Optionally the optimised kernels (``reference=False``) are compared with the reference ones.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from npuready.engine.intgraph import IntGraph


@dataclass
class OpTally:
    """Counts for one integer op over all images (plain ints: ready for JSON)."""

    op: str
    kind: str
    tensor: str
    elements: int = 0
    mismatched_propagated: int = 0
    mismatched_local: int = 0
    max_abs_propagated: int = 0
    max_abs_local: int = 0
    images_with_mismatch: int = 0
    optimized_mismatched: int = 0
    optimized_max_abs: int = 0
    compared: bool = True

    def row(self) -> dict:
        return dict(self.__dict__)


@dataclass
class OracleReport:
    model: str
    images: int
    rounding: str
    ops: list[OpTally] = field(default_factory=list)

    @property
    def tensors_compared(self) -> int:
        return sum(1 for t in self.ops if t.compared) * self.images

    @property
    def tensors_mismatched(self) -> int:
        return sum(t.images_with_mismatch for t in self.ops if t.compared)

    def summary(self) -> dict:
        return {"model": self.model, "images": self.images, "rounding": self.rounding,
                "tensors_compared": self.tensors_compared, "tensors_mismatched": self.tensors_mismatched,
                "elements_compared": sum(t.elements for t in self.ops if t.compared),
                "elements_mismatched_propagated": sum(t.mismatched_propagated for t in self.ops),
                "elements_mismatched_local": sum(t.mismatched_local for t in self.ops),
                "optimized_vs_reference_elements_mismatched": sum(t.optimized_mismatched for t in self.ops),
                "ops": [t.row() for t in self.ops]}


def compare_with_litert(qdq_model, images: np.ndarray, graph: IntGraph, engine=None, optimized: bool = True,
                        model_name: str = "model", progress=lambda it, desc: it) -> OracleReport:
    """Run ``images`` (float, N×C×H×W, ONNX layout) through our engine and LiteRT; tally per op."""
    from npuready.engine import numpy_engine
    from npuready.tflite.export import export_int8_from_qdq
    from npuready.tflite.run import make_interpreter, run_litert  # noqa: F401  (LiteRT is an extra)

    engine = engine or numpy_engine
    tfl = export_int8_from_qdq(qdq_model)
    report = OracleReport(model_name, int(len(images)), graph.rounding)
    tallies = {op.name: OpTally(op.name, op.kind, graph.tensors[op.outputs[0]].float_name) for op in graph.ops}
    report.ops = list(tallies.values())
    ours_all = engine.run(graph, images)  # batched: every tensor for every image
    q_in = graph.ops[0].outputs[0]
    for i in progress(range(len(images)), "LiteRT reference"):
        codes = ours_all[q_in][i:i + 1]
        ref = run_litert(tfl, {graph.input: codes}, reference=True)
        opt = run_litert(tfl, {graph.input: codes}, reference=False) if optimized else None
        for op in graph.ops:
            t = tallies[op.name]
            fname = graph.tensors[op.outputs[0]].float_name
            theirs = ref.onnx.get(fname)
            if theirs is None or theirs.dtype != np.int8:
                t.compared = False
                continue
            ours = ours_all[op.outputs[0]][i:i + 1].reshape(theirs.shape)
            d = np.abs(ours.astype(np.int16) - theirs.astype(np.int16))
            t.elements += int(d.size)
            t.mismatched_propagated += int((d > 0).sum())
            t.max_abs_propagated = max(t.max_abs_propagated, int(d.max(initial=0)))
            t.images_with_mismatch += int(bool((d > 0).any()))
            ins = [] if op.kind == "Quantize" else [_lookup(ref, graph, name, ours_all, i) for name in op.inputs]
            if ins and all(x is not None for x in ins):
                local = engine.run_op(op, ins).reshape(theirs.shape)
                dl = np.abs(local.astype(np.int16) - theirs.astype(np.int16))
                t.mismatched_local += int((dl > 0).sum())
                t.max_abs_local = max(t.max_abs_local, int(dl.max(initial=0)))
            if opt is not None and fname in opt.onnx:
                do = np.abs(opt.onnx[fname].astype(np.int16) - theirs.astype(np.int16))
                t.optimized_mismatched += int((do > 0).sum())
                t.optimized_max_abs = max(t.optimized_max_abs, int(do.max(initial=0)))
    return report


def _lookup(run, graph: IntGraph, name: str, ours_all, i: int):
    """LiteRT's value of one of our int8 tensors, in our layout (None when LiteRT has no such tensor)."""
    t = graph.tensors[name]
    v = run.onnx.get(t.float_name)
    if v is None or v.dtype != np.int8:
        return None
    return np.ascontiguousarray(v.reshape((1, *ours_all[name].shape[1:])))
