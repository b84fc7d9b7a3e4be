"""Fold the shape arithmetic exporters leave in a static-shape graph (Shape → Gather → Div → Slice …).

``torch.onnx.export`` writes sizes computed at run time even when every input size is fixed: chunk/split
sizes (YOLOv8's C2f), anchor grids (its Detect head), token counts and attention scales (ViT). With a
static input every such value is a constant. ``fold_static_shapes`` evaluates, with onnx's reference
evaluator, every node whose inputs are constants or the Shape/Size of a statically shaped tensor, and
replaces it by an initializer; then shape inference runs again and folding repeats until nothing
changes. A DequantizeLinear of a stored initializer stays (a quantised weight stays int8 behind its
DequantizeLinear); its value folds only into a node whose outputs are quantised again (YOLOv8's grid
offsets, Add(Range, quantised constant)), never into a float weight. Values the quantiser placed between Q/DQ pairs
although they were computed from shapes (YOLOv8's anchor grid) fold through them; where such a value meets the run-time
graph its DequantizeLinear stays, reading the folded int8 codes like any weight. Nothing that reads the graph input
is evaluated.
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from npuready.errors import InputError

NEVER = {"DequantizeLinear"}
MAX_ROUNDS = 8


def _static_shapes(model: onnx.ModelProto) -> dict[str, tuple[int, ...]]:
    g = model.graph
    out = {}
    for vi in [*g.input, *g.value_info, *g.output]:
        t = vi.type.tensor_type
        if t.HasField("shape") and all(d.HasField("dim_value") for d in t.shape.dim):
            out[vi.name] = tuple(int(d.dim_value) for d in t.shape.dim)
    return out


def _evaluate(node: onnx.NodeProto, feeds: dict[str, np.ndarray], opset: int) -> list[np.ndarray]:
    g = helper.make_graph([node], "fold",
                          [helper.make_tensor_value_info(k, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
                           for k, v in feeds.items()],
                          [helper.make_tensor_value_info(o, onnx.TensorProto.UNDEFINED, None)
                           for o in node.output if o])
    if node.op_type in ("QuantizeLinear", "DequantizeLinear"):  # onnx's evaluator implements them from 19 on
        opset = max(opset, 19)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    try:
        return [np.asarray(r) for r in ReferenceEvaluator(m).run(None, feeds)]
    except Exception as exc:  # noqa: BLE001 - one line naming the node, not a traceback
        raise InputError(f"node {node.name} ({node.op_type}): folding its constant inputs failed ({exc}); "
                         "export the model with constant folding enabled") from None


def _fold_once(model: onnx.ModelProto, weights: set[str]) -> tuple[onnx.ModelProto, int]:
    """One pass; ``weights`` are the initializers of the model as given (a DequantizeLinear of one of them
    stays), not the codes an earlier pass folded (a DequantizeLinear of those folds on)."""
    g = model.graph
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 17)
    shapes = _static_shapes(model)
    known = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    stored = set(known) & weights
    keep, folded = [], 0
    dq_kept: list[onnx.NodeProto] = []  # DequantizeLinear of folded codes: kept while run-time nodes read it
    weight_values: set[str] = set()  # dequantised stored weights: fold only into a value quantised again
    requantised = {o for n in g.node for o in n.output if o} - {i for n in g.node if n.op_type != "QuantizeLinear"
                                                                for i in n.input} - {o.name for o in g.output}
    for node in g.node:
        ins = [i for i in node.input if i]
        value = None
        if any(i in weight_values for i in ins) and not all(o in requantised for o in node.output if o):
            keep.append(node)
            continue
        if node.op_type in ("Shape", "Size") and ins and ins[0] in shapes:
            s = np.array(shapes[ins[0]], np.int64)
            if node.op_type == "Size":
                value = [np.array(int(np.prod(s)), np.int64)]
            else:
                start, end = 0, None
                for a in node.attribute:
                    if a.name == "start":
                        start = a.i
                    elif a.name == "end":
                        end = a.i
                value = [s[start:end]]
        elif all(i in known for i in ins) and (ins or node.op_type == "Constant"):
            if node.op_type in NEVER:
                if ins[0] in stored:
                    weight_values.update(o for o in node.output if o)
                dq_kept.append(node)
            value = _evaluate(node, {i: known[i] for i in ins}, opset)
        if value is None:
            keep.append(node)
            continue
        folded += 1
        for name, v in zip([o for o in node.output if o], value):
            known[name] = v
    used = {i for n in keep for i in n.input} | {o.name for o in g.output}
    dq_used = [n for n in dq_kept if n.output[0] in used]
    folded -= len(dq_used)
    if not folded:
        return model, 0
    dq_names = {n.output[0] for n in dq_used}
    kept_ids = {id(n) for n in keep} | {id(n) for n in dq_used}
    keep = [n for n in g.node if id(n) in kept_ids]  # original order
    used |= {i for n in dq_used for i in n.input}
    init_names = {t.name for t in g.initializer}
    new = onnx.ModelProto()
    new.CopyFrom(model)
    del new.graph.node[:]
    new.graph.node.extend(keep)
    for name, v in known.items():
        if name in used and name not in init_names and name not in dq_names:
            new.graph.initializer.append(numpy_helper.from_array(np.array(v), name))
    del new.graph.value_info[:]
    new = onnx.shape_inference.infer_shapes(new, check_type=False, strict_mode=False, data_prop=True)
    return new, folded


def fold_static_shapes(model: onnx.ModelProto) -> tuple[onnx.ModelProto, int]:
    """(model with its static shape arithmetic folded into initializers, number of nodes folded)."""
    inferred = onnx.shape_inference.infer_shapes(model, check_type=False, strict_mode=False, data_prop=True)
    weights = {t.name for t in model.graph.initializer}
    total = 0
    for _ in range(MAX_ROUNDS):
        inferred, n = _fold_once(inferred, weights)
        total += n
        if n == 0:
            break
    return (inferred if total else model), total
