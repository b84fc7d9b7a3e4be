"""ONNX Gemm / MatMul → FULLY_CONNECTED (constant B) or BATCH_MATMUL (B computed at run time).

FULLY_CONNECTED weights are ``[N, K]`` (per-channel axis 0); Gemm's alpha/beta fold into weights and
bias (float mode only). MatMul with a rank > 2 input keeps its leading dims (keep_num_dims).
"""
from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.errors import InputError
from npuready.graph.view import Node
from npuready.tflite.context import Const, Context, identity
from npuready.tflite.ops.common import fuse_activation
from npuready.tflite.ops.conv import bias_tensor, qbias


def _fully_connected(ctx: Context, node: Node, a: str, w: Const, w_label: str, bias: np.ndarray,
                     b_name: str | None) -> None:
    if ctx.int8:
        if w.q is None:
            raise InputError(f"node {node.name!r} ({node.op_type}): weight {w_label!r} is not quantized")
        if any(z != 0 for z in w.qp.zero_point):
            raise InputError(f"node {node.name!r} ({node.op_type}): weight zero point must be 0 (symmetric int8)")
        if w.qp.per_channel and w.qp.axis != 0:
            raise InputError(f"node {node.name!r} ({node.op_type}): weight quantized per input channel; "
                             "TFLite FULLY_CONNECTED needs per-output-channel (axis of N) or per-tensor")
    act, out = fuse_activation(ctx, node.outputs[0])
    rank = len(ctx.shape(a))
    x = ctx.value(a, identity(rank))
    n = w.f.shape[0]
    ins = [x.index, ctx.add_const(w_label, w), bias_tensor(ctx, f"{out}#bias", qbias(ctx, b_name), n, x.index, w, bias)]
    out_shape = list(ctx.shape(out))
    opts = fb.FullyConnectedOptionsT(fusedActivationFunction=act, keepNumDims=rank > 2)
    ctx.op("FULLY_CONNECTED", ins, [ctx.new_value(out, out_shape, identity(len(out_shape)))], opts)


def _batch_matmul(ctx: Context, node: Node, a: str, b: str, adj_x=False, adj_y=False) -> None:
    out = node.outputs[0]
    ra, rb = len(ctx.shape(a)), len(ctx.shape(b))
    ins = [ctx.value(a, identity(ra)).index, ctx.value(b, identity(rb)).index]
    out_shape = list(ctx.shape(out))
    ctx.op("BATCH_MATMUL", ins, [ctx.new_value(out, out_shape, identity(len(out_shape)))],
           fb.BatchMatMulOptionsT(adjX=adj_x, adjY=adj_y))


def lower_gemm(ctx: Context, node: Node) -> None:
    a, b = node.inputs[0], node.inputs[1]
    c_name = node.inputs[2] if len(node.inputs) > 2 and node.inputs[2] else None
    alpha, beta = float(node.attr("alpha", 1.0)), float(node.attr("beta", 1.0))
    trans_a, trans_b = int(node.attr("transA", 0)), int(node.attr("transB", 0))
    if trans_a:
        raise InputError(f"node {node.name!r} (Gemm): transA=1 is not exported; transpose A before the Gemm")
    if ctx.const(b) is None:
        if c_name or alpha != 1.0:
            raise InputError(f"node {node.name!r} (Gemm): run-time B with bias/alpha is not exported; use MatMul + Add")
        _batch_matmul(ctx, node, a, b, adj_y=bool(trans_b))
        return
    w = ctx.const_tensor(b)
    if not trans_b:
        w = w.transpose((1, 0))
    n = w.f.shape[0]
    if alpha != 1.0:
        if ctx.int8:
            raise InputError(f"node {node.name!r} (Gemm): alpha={alpha} with quantized weights; fold alpha first")
        w = Const(w.f * np.float32(alpha))
    bias = np.zeros(n, np.float32)
    if c_name:
        c = ctx.const(c_name)
        if c is None or c.size not in (1, n):
            raise InputError(f"node {node.name!r} (Gemm): C must be a constant of size 1 or N={n}")
        bias = np.broadcast_to(np.asarray(c, np.float32).reshape(-1) * np.float32(beta), (n,)).copy()
        if ctx.int8 and beta != 1.0:
            raise InputError(f"node {node.name!r} (Gemm): beta={beta} with quantized bias; fold beta first")
    _fully_connected(ctx, node, a, w, b, bias, c_name)


def lower_matmul(ctx: Context, node: Node) -> None:
    a, b = node.inputs[0], node.inputs[1]
    bc = ctx.const(b)
    if bc is None or bc.ndim != 2:
        _batch_matmul(ctx, node, a, b)
        return
    w = ctx.const_tensor(b).transpose((1, 0))
    _fully_connected(ctx, node, a, w, b, np.zeros(w.f.shape[0], np.float32), None)


#: ONNX op type -> this module's lowering (``tflite.ops.registry.CONVERTERS`` is built from these)
LOWERS = {
    "Gemm": lower_gemm,
    "MatMul": lower_matmul,
}
