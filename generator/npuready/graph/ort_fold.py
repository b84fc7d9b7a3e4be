"""The values of constant (shape) computations, as onnxruntime's constant folding computes them.

With static input shapes, onnxruntime's basic graph optimisation folds every compile-time computation —
Shape → Gather → Mod → Sub → Concat chains that compute a Pad's pads (Swin's window padding), a
Reshape target, a Slice end — into initializers named after the folded outputs. Symbolic shape inference
cannot follow some of those chains (a pads vector reversed with a negative-step Slice) and invents new
dims instead. ``folded_values`` runs that optimisation on a copy of the model (written to a temporary
folder, with the weights turned into graph inputs so that only shapes and small constants are folded; never
shown to the user: the same pass also fuses Conv+BN and would hide nodes) and returns the
folded values of the original graph's node outputs; ``with_constants`` gives the copy of the model that
shape inference then runs on, where the nodes producing those values are replaced by ``Constant`` nodes.
Every other node is the user's.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import helper

MAX_BYTES = 1 << 31  # protobuf's limit: larger models are not serialised for the folding pass
# passes that merge equal values under one name or remove no-op nodes (x*1, int64→int64 Cast, Identity…):
# each would hide a folded value under another node's name
KEEP_NAMES = ["ConstantSharing", "CommonSubexpressionElimination", "NoopElimination", "CastElimination",
              "CastChainElimination", "EliminateIdentity", "EliminateSlice", "UnsqueezeElimination",
              "ExpandElimination", "EliminateDropout", "DivMulFusion", "ReshapeFusion", "PreShapeNodeElimination",
              "GatherToSliceFusion"]
MAX_VALUE_ELEMENTS = 1 << 16  # shape computations are small; large folded tensors are not needed for shapes


def folded_values(model: onnx.ModelProto) -> dict[str, onnx.TensorProto]:
    """Original node outputs that onnxruntime's basic optimisation turns into initializers ({} when it cannot)."""
    try:
        import onnxruntime as ort
    except ImportError:
        return {}
    if model.ByteSize() >= MAX_BYTES:
        return {}
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    so.log_severity_level = 4
    so.intra_op_num_threads = 1
    light = _weights_as_inputs(model)
    with tempfile.TemporaryDirectory(prefix="npuready-fold-") as tmp:
        so.optimized_model_filepath = str(Path(tmp) / "folded.onnx")
        try:
            ort.InferenceSession(light.SerializeToString(), so, providers=["CPUExecutionProvider"],
                                 disabled_optimizers=KEEP_NAMES)
            optimized = onnx.load(so.optimized_model_filepath)
        except Exception:  # a model onnxruntime does not run (custom ops, odd opsets): no folded values
            return {}
    produced = {o for n in model.graph.node for o in n.output if o}
    initial = {t.name for t in model.graph.initializer}
    return {t.name: t for t in optimized.graph.initializer
            if t.name in produced and t.name not in initial
            and int(np.prod(t.dims, dtype=np.int64)) <= MAX_VALUE_ELEMENTS}


def _weights_as_inputs(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy whose large initializers (weights) are graph inputs of the same type and shape: their shapes
    still fold, their values are not copied into the session or folded (no shape computation needs them)."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    g = out.graph
    big = [t for t in g.initializer if int(np.prod(t.dims, dtype=np.int64)) > MAX_VALUE_ELEMENTS]
    if not big:
        return out
    names = {t.name for t in big}
    keep = [t for t in g.initializer if t.name not in names]
    declared = {vi.name for vi in g.input}
    g.input.extend(helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)) for t in big
                   if t.name not in declared)
    del g.initializer[:]
    g.initializer.extend(keep)
    return out


def with_constants(model: onnx.ModelProto, values: dict[str, onnx.TensorProto]) -> onnx.ModelProto:
    """A copy of ``model`` in which each node whose outputs all have a folded value becomes Constant nodes."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    nodes = []
    for node in out.graph.node:
        outs = [o for o in node.output if o]
        if outs and all(o in values for o in outs):
            nodes.extend(helper.make_node("Constant", [], [o], name=f"{node.name or node.op_type}:{o}",
                                          value=values[o]) for o in outs)
        else:
            nodes.append(node)
    del out.graph.node[:]
    out.graph.node.extend(nodes)
    return out
