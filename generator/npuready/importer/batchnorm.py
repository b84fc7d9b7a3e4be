"""BatchNormalization folded into the Conv/ConvTranspose/Gemm before it, or lowered to Mul+Add.

Inference-mode BatchNormalization is ``y = x·f + (b − mean·f)`` per channel with ``f = scale / √(var + ε)``.
It folds into the producer of ``x`` when that producer is a Conv, ConvTranspose or Gemm with constant
weight (and bias), ``x`` has no other reader and is no graph output: the weight is scaled per output channel
and the bias shifted (new initializers; the originals stay when something else reads them) and the producer
writes the BatchNormalization's output name. Otherwise, with constant statistics, it is lowered to
``Mul`` by a constant per-channel scale and ``Add`` of a constant shift (shape ``[C, 1, …]`` for the input's
rank). A training-mode node, one whose statistics are computed, or one whose input rank is unknown, stays.
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper

from npuready.importer.edit import (all_names, constant, consumers, drop_unused_constants, drop_value_info, fresh,
                                    initializers, producers, remove_nodes)
from npuready.importer.record import Rewrite

FOLDS_INTO = ("Conv", "ConvTranspose", "Gemm")


def _attr(node: onnx.NodeProto, name: str, default):
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def _stats(g, bn, inits, prods):
    values = [constant(g, name, inits, prods) if name else None for name in bn.input[1:5]]
    if len(values) < 4 or any(v is None for v in values):
        return None
    scale, bias, mean, var = (v.astype(np.float64).reshape(-1) for v in values)
    denom = var + float(_attr(bn, "epsilon", 1e-5))
    if not (np.all(denom > 0) and np.all(np.isfinite(denom))):
        return "variance + epsilon is not positive on every channel"
    f = scale / np.sqrt(denom)
    return f, bias - mean * f, values[0].dtype


def _fold(g, bn, producer, f, shift, inits, prods, taken) -> str | None:
    """Scale ``producer``'s weight/bias in place of ``bn``; the reason it cannot, or None when done."""
    w = constant(g, producer.input[1], inits, prods) if len(producer.input) > 1 else None
    b = constant(g, producer.input[2], inits, prods) if len(producer.input) > 2 and producer.input[2] else None
    if w is None or (len(producer.input) > 2 and producer.input[2] and b is None):
        return "its weight or bias is not a constant"
    c = f.size
    op = producer.op_type
    if op == "Conv":
        if w.shape[0] != c:
            return f"weight has {w.shape[0]} output channels, BatchNormalization {c}"
        w2 = w.astype(np.float64) * f.reshape((c,) + (1,) * (w.ndim - 1))
        b0 = np.zeros(c) if b is None else b.astype(np.float64).reshape(-1)
    elif op == "ConvTranspose":
        group = int(_attr(producer, "group", 1))
        if w.ndim < 3 or w.shape[1] * group != c or w.shape[0] % group:
            return f"weight shape {list(w.shape)} (group {group}) does not give {c} output channels"
        ww = w.astype(np.float64).reshape((group, w.shape[0] // group, w.shape[1]) + w.shape[2:])
        w2 = (ww * f.reshape((group, 1, w.shape[1]) + (1,) * (w.ndim - 2))).reshape(w.shape)
        b0 = np.zeros(c) if b is None else b.astype(np.float64).reshape(-1)
    else:  # Gemm: y = alpha·A·B' + beta·C, channels along B's output axis
        trans_b = int(_attr(producer, "transB", 0))
        if w.ndim != 2 or w.shape[0 if trans_b else 1] != c:
            return f"Gemm weight shape {list(w.shape)} (transB {trans_b}) does not give {c} output channels"
        if b is not None and b.size not in (1, c) or (b is not None and b.ndim == 2 and b.shape[0] != 1):
            return f"Gemm bias shape {list(b.shape)} is not per output channel"
        w2 = w.astype(np.float64) * (f.reshape(c, 1) if trans_b else f.reshape(1, c))
        beta = float(_attr(producer, "beta", 1.0))
        b0 = np.zeros(c) if b is None else beta * np.broadcast_to(b.astype(np.float64).reshape(-1), (c,))
    if b0.size != c:
        return f"bias has {b0.size} values, BatchNormalization {c}"
    new_w = numpy_helper.from_array(w2.astype(w.dtype), fresh(taken, f"{producer.input[1]}_bnfold"))
    new_b = numpy_helper.from_array((b0 * f + shift).astype(w.dtype),
                                    fresh(taken, f"{producer.name or op}_bias_bnfold"))
    g.initializer.extend([new_w, new_b])
    old = [v for v in producer.input[1:3] if v]
    producer.input[1] = new_w.name
    if len(producer.input) > 2:
        producer.input[2] = new_b.name
    else:
        producer.input.append(new_b.name)
    if op == "Gemm":
        for a in producer.attribute:
            if a.name == "beta":
                a.f = 1.0
    x = producer.output[0]
    producer.output[0] = bn.output[0]
    drop_value_info(g, {x})
    remove_nodes(g, [bn])
    drop_unused_constants(g, set(old) | {v for v in bn.input[1:5] if v})
    return None


def _lower(g, bn, f, shift, dtype, rank, taken) -> None:
    shape = (f.size,) + (1,) * max(rank - 2, 0) if rank >= 2 else (f.size,)
    base = bn.name or "BatchNormalization"
    scale = numpy_helper.from_array(f.reshape(shape).astype(dtype), fresh(taken, f"{base}_scale"))
    shift_t = numpy_helper.from_array(shift.reshape(shape).astype(dtype), fresh(taken, f"{base}_shift"))
    mid = fresh(taken, f"{base}_scaled")
    mul = helper.make_node("Mul", [bn.input[0], scale.name], [mid], name=fresh(taken, f"{base}/mul"))
    add = helper.make_node("Add", [mid, shift_t.name], [bn.output[0]], name=fresh(taken, f"{base}/add"))
    g.initializer.extend([scale, shift_t])
    index = next(i for i, n in enumerate(g.node) if n.output and n.output[0] == bn.output[0])
    stats = {v for v in bn.input[1:5] if v}
    del g.node[index]
    g.node.insert(index, add)
    g.node.insert(index, mul)
    drop_unused_constants(g, stats)


def _ranks(model: onnx.ModelProto) -> dict[str, int]:
    try:
        inferred = onnx.shape_inference.infer_shapes(model, check_type=False, strict_mode=False)
    except Exception:
        inferred = model
    g = inferred.graph
    return {vi.name: len(vi.type.tensor_type.shape.dim) for vi in list(g.input) + list(g.value_info) + list(g.output)
            if vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape")}


def rewrite(model: onnx.ModelProto) -> tuple[onnx.ModelProto, list[Rewrite]]:
    g = model.graph
    if not any(n.op_type == "BatchNormalization" for n in g.node):
        return model, []
    out: list[Rewrite] = []
    taken = all_names(g)
    ranks: dict[str, int] | None = None
    outputs = {o.name for o in g.output}
    for bn in [n for n in g.node if n.op_type == "BatchNormalization" and n.domain in ("", "ai.onnx")]:
        name = bn.name or bn.output[0]
        inits, prods, users = initializers(g), producers(g), consumers(g)
        extra = [o for o in bn.output[1:] if o and (users.get(o) or o in outputs)]
        if int(_attr(bn, "training_mode", 0)) or extra:
            out.append(Rewrite("batchnorm-kept", (name,), "training mode (its running statistics are read)"))
            continue
        stats = _stats(g, bn, inits, prods)
        if stats is None or isinstance(stats, str):
            out.append(Rewrite("batchnorm-kept", (name,), stats or "scale, bias, mean or variance is not a constant"))
            continue
        f, shift, dtype = stats
        x = bn.input[0]
        producer = prods.get(x)
        why = "its input is not written by a Conv, ConvTranspose or Gemm"
        if producer is not None and producer.op_type in FOLDS_INTO and producer.domain in ("", "ai.onnx"):
            if len(users.get(x, [])) != 1 or x in outputs or len(producer.output) != 1:
                why = f"{producer.op_type} output '{x}' has other readers"
            else:
                why = _fold(g, bn, producer, f, shift, inits, prods, taken)
                if why is None:
                    out.append(Rewrite("batchnorm-folded", (name, producer.name or producer.op_type),
                                       f"folded into {producer.op_type} '{producer.name}' ({f.size} channels)"))
                    continue
                why = f"{producer.op_type} '{producer.name}': {why}"
        if ranks is None:
            ranks = _ranks(model)
        rank = ranks.get(x) or ranks.get(bn.output[0])
        if not rank:
            out.append(Rewrite("batchnorm-kept", (name,), f"not folded ({why}) and its input rank is unknown"))
            continue
        _lower(g, bn, f, shift, dtype, rank, taken)
        out.append(Rewrite("batchnorm-lowered", (name,), f"Mul+Add with constant per-channel scale/shift "
                                                         f"({f.size} channels; not folded: {why})"))
    return model, out
