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
from npuready.engine.runner import run_op_per_image


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
    optimized_local_declared: int = 0  # our op (declared rounding) fed the optimised kernels' inputs
    optimized_local_single: int = 0    # the same with single rounding everywhere
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
                "optimized_local_mismatched_declared": sum(t.optimized_local_declared for t in self.ops),
                "optimized_local_mismatched_single": sum(t.optimized_local_single for t in self.ops),
                "ops": [t.row() for t in self.ops]}


def compare_with_litert(qdq_model, images: np.ndarray, graph: IntGraph, engine=None, optimized: bool = True,
                        model_name: str = "model", progress=lambda it, desc: it, chunk: int = 100) -> OracleReport:
    """Run ``images`` (float, N×C×H×W, ONNX layout) through our engine and LiteRT; tally per op.

    LiteRT runs image by image (its graph has batch 1); our engine and the local checks run on chunks
    of ``chunk`` images at a time.
    """
    from npuready.engine import numpy_engine
    from npuready.tflite.export import export_int8_from_qdq
    from npuready.tflite.run import feed, make_interpreter
    from npuready.tflite.tensor_map import read_tensor_map

    from dataclasses import replace

    engine = engine or numpy_engine
    tfl = export_int8_from_qdq(qdq_model)
    single = {op.name: replace(op, rounding="single") for op in graph.ops}
    mapping = read_tensor_map(tfl)
    interps = [make_interpreter(tfl, reference=True)] + ([make_interpreter(tfl, reference=False)] if optimized else [])
    report = OracleReport(model_name, int(len(images)), graph.rounding)
    consts = {op.outputs[0]: op.params["value"] for op in graph.ops if op.kind == "Constant"}
    tallies = {op.name: OpTally(op.name, op.kind, graph.tensors[op.outputs[0]].float_name) for op in graph.ops
               if op.kind != "Constant"}
    report.ops = list(tallies.values())
    q_in = graph.ops[0].outputs[0]
    names = [n for n in graph.tensors if n not in consts]
    starts = range(0, len(images), chunk)
    for start in progress(starts, f"LiteRT reference ({len(images)} images)"):
        ours = engine.run(graph, images[start:start + chunk])
        ref: dict[str, list] = {n: [] for n in names}
        opt: dict[str, list] = {n: [] for n in names}
        for i in range(len(ours[q_in])):
            codes = ours[q_in][i:i + 1]
            for store, interp in zip((ref, opt), interps):
                feed(interp, mapping, {graph.input: codes})
                interp.invoke()
                for n in names:
                    tref = mapping.tensors.get(graph.tensors[n].float_name)
                    v = None if tref is None else tref.to_onnx(np.array(interp.get_tensor(tref.tflite_index)))
                    store[n].append(v if v is not None and v.dtype == np.int8 else None)
        theirs = {n: (np.concatenate(v) if all(x is not None for x in v) else None) for n, v in ref.items()}
        theirs.update(consts)
        fast = {n: (np.concatenate(v) if v and all(x is not None for x in v) else None) for n, v in opt.items()}
        fast.update(consts)
        for op in graph.ops:
            if op.kind == "Constant":
                continue
            t = tallies[op.name]
            out = op.outputs[0]
            if theirs[out] is None:
                t.compared = False
                continue
            mine = ours[out].reshape(theirs[out].shape)
            d = np.abs(mine.astype(np.int16) - theirs[out].astype(np.int16))
            t.elements += int(d.size)
            t.mismatched_propagated += int((d > 0).sum())
            t.max_abs_propagated = max(t.max_abs_propagated, int(d.max(initial=0)))
            t.images_with_mismatch += int((d.reshape(len(d), -1) > 0).any(axis=1).sum())
            if op.kind != "Quantize" and all(theirs[i] is not None for i in op.inputs):
                ins = [np.ascontiguousarray(theirs[i] if i in consts else theirs[i].reshape(ours[i].shape))
                       for i in op.inputs]
                local = run_op_per_image(graph, engine.run_op, op, ins, len(ours[q_in]), consts)
                local = local.reshape(theirs[out].shape)
                dl = np.abs(local.astype(np.int16) - theirs[out].astype(np.int16))
                t.mismatched_local += int((dl > 0).sum())
                t.max_abs_local = max(t.max_abs_local, int(dl.max(initial=0)))
            if fast[out] is not None:
                do = np.abs(fast[out].astype(np.int16) - theirs[out].astype(np.int16))
                t.optimized_mismatched += int((do > 0).sum())
                t.optimized_max_abs = max(t.optimized_max_abs, int(do.max(initial=0)))
                if op.kind != "Quantize" and all(fast.get(i) is not None or i in consts for i in op.inputs):
                    fins = [np.ascontiguousarray(consts[i] if i in consts else fast[i].reshape(ours[i].shape))
                            for i in op.inputs]
                    for variant, attr in ((op, "optimized_local_declared"), (single[op.name], "optimized_local_single")):
                        got = run_op_per_image(graph, engine.run_op, variant, fins, len(ours[q_in]), consts)
                        setattr(t, attr, getattr(t, attr) + int((got.reshape(fast[out].shape) != fast[out]).sum()))
    return report
