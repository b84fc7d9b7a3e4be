"""Walk a Graph in topological order and lower every node to TFLite (float32, or int8 with a QuantTable).

Nodes whose inputs are all constants (and Shape of a static tensor) are folded with onnx's reference
evaluator instead of being exported. Graph inputs of rank 4 become NHWC TFLite inputs; every other
input keeps its ONNX order.
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import helper
from onnx.reference import ReferenceEvaluator

from npuready.errors import InputError
from npuready.graph import Graph
from npuready.tflite.context import NHWC, Context, identity
from npuready.tflite.ops.registry import CONVERTERS
from npuready.tflite.quant_table import QuantTable
from npuready.tflite.tensor_map import METADATA_KEY, TensorMap, TensorRef


def _fold(ctx: Context, node) -> bool:
    """Evaluate ``node`` now when its value is known at export time."""
    if node.op_type == "Shape":
        shape = np.array(ctx.shape(node.inputs[0]), np.int64)
        start, end = node.attr("start", 0), node.attr("end", None)
        ctx.consts[node.outputs[0]] = shape[start:end]
        return True
    ins = [i for i in node.inputs if i]
    if node.op_type == "Constant" or (ins and all(ctx.const(i) is not None for i in ins)):
        if node.op_type == "Constant":
            ctx.const(node.outputs[0])
            if node.outputs[0] in ctx.consts:
                return True
        feeds = {i: ctx.const(i) for i in ins}
        g = helper.make_graph([node.proto], "fold",
                              [helper.make_tensor_value_info(i, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
                               for i, v in feeds.items()],
                              [helper.make_tensor_value_info(o, onnx.TensorProto.UNDEFINED, None)
                               for o in node.outputs if o])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", ctx.graph.opsets.get("", 17))])
        try:
            results = ReferenceEvaluator(m).run(None, feeds)
        except Exception as exc:  # noqa: BLE001 - report as bad input, not a traceback
            raise InputError(f"node {node.name!r} ({node.op_type}): constant folding failed: {exc}") from None
        for o, r in zip([o for o in node.outputs if o], results):
            ctx.consts[o] = np.asarray(r)
        return True
    return False


def lower_graph(graph: Graph, quant: QuantTable | None = None) -> bytes:
    ctx = Context(graph, quant)
    inputs = []
    for info in graph.inputs:
        if not info.is_static:
            raise InputError(f"input {info.name!r}: shape {info.shape_text()} is not static; export with "
                             "fixed sizes and batch 1")
        if info.dtype != "float32":
            raise InputError(f"input {info.name!r}: dtype {info.dtype}; only float32 inputs are exported")
        perm = NHWC if len(info.shape) == 4 else identity(len(info.shape))
        inputs.append(ctx.new_value(info.name, [info.shape[a] for a in perm], perm))
    for node in graph.nodes:
        if node.name in ctx.consumed:
            continue
        if not node.is_standard:
            raise InputError(f"node {node.name!r}: op {node.domain}.{node.op_type} is not exported to TFLite")
        if _fold(ctx, node):
            continue
        convert = CONVERTERS.get(node.op_type)
        if convert is None:
            raise InputError(f"node {node.name!r}: op {node.op_type} is not supported by the TFLite exporter; "
                             f"supported: {', '.join(sorted(CONVERTERS))}")
        convert(ctx, node)
    outputs = []
    for info in graph.outputs:
        if info.name not in ctx.values:
            raise InputError(f"output {info.name!r}: is a constant or was not exported")
        outputs.append(ctx.values[info.name].index)
    refs = {name: TensorRef(name, ctx.b.name_of(v.index), v.index, v.perm)
            for name, v in ctx.values.items() if name not in ctx.consts}
    if quant is not None:
        for other, src in quant.aliases.items():
            if src in refs and other not in refs:
                refs[other] = TensorRef(other, refs[src].tflite_name, refs[src].tflite_index, refs[src].perm)
    tmap = TensorMap(refs, tuple(i.name for i in graph.inputs), tuple(o.name for o in graph.outputs),
                     dict(ctx.fused), tuple(ctx.adjustments))
    return ctx.b.finish(inputs, outputs, {METADATA_KEY: tmap.to_json().encode("utf-8")})
