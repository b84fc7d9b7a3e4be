"""Cross-check the integer engine against LiteRT's reference kernels (BUILTIN_REF), tensor by tensor.

The same QDQ model is exported to INT8 TFLite with its own scales (``npuready.tflite``), both run on
the same int8 input codes, and every int8 tensor of the integer graph is compared with the LiteRT
tensor holding the same ONNX tensor. Two views per op:

- propagated: our engine run end to end vs LiteRT end to end;
- local: our op fed LiteRT's own input tensors vs LiteRT's output (isolates the op's arithmetic).

Optionally LiteRT's builtin optimised kernels (``OPTIMIZED_RESOLVER``, no XNNPACK delegate) are compared
with the reference ones, end to end and locally against our ops.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from npuready.engine.intgraph import IntGraph
from npuready.engine.runner import run_op_per_image


#: LiteRT kernel sets compared with BUILTIN_REF: name -> OpResolverType. "xnnpack" is the default
#: (AUTO: builtin kernels with the XNNPACK delegate), "builtin" the builtin optimised kernels alone.
OPTIMIZED: dict[str, str] = {"xnnpack": "AUTO", "builtin": "BUILTIN_WITHOUT_DEFAULT_DELEGATES"}


def _opt_counts() -> dict:
    return {"mismatched": 0, "max_abs": 0, "local_declared": 0, "local_single": 0}


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
    # per optimised kernel set: end-to-end mismatch vs REF, and our op (declared rounding / single rounding)
    # fed that kernel set's own inputs vs its output (local)
    optimized: dict = field(default_factory=dict)
    compared: bool = True

    def row(self) -> dict:
        return {k: (dict(v) if isinstance(v, dict) else v) for k, v in self.__dict__.items()}


@dataclass
class OracleReport:
    model: str
    images: int
    rounding: str
    ops: list[OpTally] = field(default_factory=list)
    unavailable: dict = field(default_factory=dict)  # optimised kernel set -> why it could not run

    @property
    def tensors_compared(self) -> int:
        return sum(1 for t in self.ops if t.compared) * self.images

    @property
    def tensors_mismatched(self) -> int:
        return sum(t.images_with_mismatch for t in self.ops if t.compared)

    def first_mismatch(self) -> dict | None:
        """The first compared op (graph order) whose int8 output differs on some image, or None."""
        bad = next((t for t in self.ops if t.compared and t.images_with_mismatch), None)
        if bad is None:
            return None
        return {"op": bad.name, "kind": bad.kind, "tensor": bad.float_name, "images": bad.images_with_mismatch,
                "elements": bad.mismatched_propagated, "max_abs_code_diff": bad.max_abs_propagated}

    def optimized_summary(self) -> dict:
        out = {}
        for name in OPTIMIZED:
            if name in self.unavailable:
                out[name] = {"resolver": OPTIMIZED[name], "unavailable": self.unavailable[name]}
                continue
            rows = [t.optimized.get(name) for t in self.ops if name in t.optimized]
            if not rows:
                continue
            out[name] = {"resolver": OPTIMIZED[name],
                         "elements_mismatched_vs_reference": sum(r["mismatched"] for r in rows),
                         "max_abs_vs_reference": max(r["max_abs"] for r in rows),
                         "local_mismatched_declared_rounding": sum(r["local_declared"] for r in rows),
                         "local_mismatched_single_rounding": sum(r["local_single"] for r in rows)}
        return out

    def summary(self) -> dict:
        return {"model": self.model, "images": self.images, "rounding": self.rounding,
                "tensors_compared": self.tensors_compared, "tensors_mismatched": self.tensors_mismatched,
                "elements_compared": sum(t.elements for t in self.ops if t.compared),
                "elements_mismatched_propagated": sum(t.mismatched_propagated for t in self.ops),
                "elements_mismatched_local": sum(t.mismatched_local for t in self.ops),
                "optimized": self.optimized_summary(),
                "ops": [t.row() for t in self.ops]}


def compare_with_litert(qdq_model, images: np.ndarray, graph: IntGraph, engine=None, optimized: bool = True,
                        model_name: str = "model", progress=lambda it, desc: it, chunk: int = 100) -> OracleReport:
    """Run ``images`` (float, N×C×H×W, ONNX layout) through our engine and LiteRT; tally per op.

    LiteRT runs image by image (its graph has batch 1); our engine and the local checks run on chunks
    of ``chunk`` images at a time.
    """
    from dataclasses import replace

    from npuready.engine import numpy_engine
    from npuready.tflite.export import export_int8_from_qdq
    from npuready.tflite.run import feed, make_interpreter
    from npuready.tflite.tensor_map import read_tensor_map

    engine = engine or numpy_engine
    tfl = export_int8_from_qdq(qdq_model)
    single = {op.name: replace(op, rounding="single") for op in graph.ops}
    mapping = read_tensor_map(tfl)
    report = OracleReport(model_name, int(len(images)), graph.rounding)
    interps = {"reference": make_interpreter(tfl)}
    for name, resolver in (OPTIMIZED.items() if optimized else ()):
        try:
            interps[name] = make_interpreter(tfl, resolver)
        except (RuntimeError, ValueError) as exc:  # e.g. XNNPACK refuses per-tensor int8 convolutions
            report.unavailable[name] = " ".join(str(exc).split())[:200]
    consts = {op.outputs[0]: op.params["value"] for op in graph.ops if op.kind == "Constant"}
    tallies = {op.name: OpTally(op.name, op.kind, graph.tensors[op.outputs[0]].float_name) for op in graph.ops
               if op.kind != "Constant"}
    report.ops = list(tallies.values())
    q_in = graph.ops[0].outputs[0]
    names = [n for n in graph.tensors if n not in consts]
    for start in progress(range(0, len(images), chunk), f"LiteRT reference ({len(images)} images)"):
        ours = engine.run(graph, images[start:start + chunk])
        n_img = len(ours[q_in])
        got: dict[str, dict[str, list]] = {k: {n: [] for n in names} for k in interps}
        for i in range(n_img):
            for key, interp in interps.items():
                feed(interp, mapping, {graph.input: ours[q_in][i:i + 1]})
                interp.invoke()
                for n in names:
                    tref = mapping.tensors.get(graph.tensors[n].float_name)
                    v = None if tref is None else tref.to_onnx(np.array(interp.get_tensor(tref.tflite_index)))
                    got[key][n].append(v if v is not None and v.dtype == np.int8 else None)
        stacked = {}
        for key, per in got.items():
            stacked[key] = {n: (np.concatenate(v) if all(x is not None for x in v) else None) for n, v in per.items()}
            stacked[key].update(consts)
        theirs = stacked["reference"]
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
            if op.kind == "Quantize":
                continue
            local = _local(graph, engine, op, stacked["reference"], ours, n_img, consts)
            if local is not None:
                dl = np.abs(local.reshape(theirs[out].shape).astype(np.int16) - theirs[out].astype(np.int16))
                t.mismatched_local += int((dl > 0).sum())
                t.max_abs_local = max(t.max_abs_local, int(dl.max(initial=0)))
            for key in interps:
                fast = stacked[key]
                if key == "reference" or fast[out] is None:
                    continue
                c = t.optimized.setdefault(key, _opt_counts())
                do = np.abs(fast[out].astype(np.int16) - theirs[out].astype(np.int16))
                c["mismatched"] += int((do > 0).sum())
                c["max_abs"] = max(c["max_abs"], int(do.max(initial=0)))
                for variant, field_name in ((op, "local_declared"), (single[op.name], "local_single")):
                    got_local = _local(graph, engine, variant, fast, ours, n_img, consts)
                    if got_local is not None:
                        c[field_name] += int((got_local.reshape(fast[out].shape) != fast[out]).sum())
    return report


def _local(graph, engine, op, source, ours, n_img, consts):
    """``op`` run on ``source``'s values of its inputs (None when one is missing)."""
    if not all(source.get(i) is not None for i in op.inputs):
        return None
    ins = [np.ascontiguousarray(consts[i] if i in consts else source[i].reshape(ours[i].shape)) for i in op.inputs]
    return run_op_per_image(graph, engine.run_op, op, ins, n_img, consts)
