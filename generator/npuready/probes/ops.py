"""Probes for single non-activation ops the lint rules care about (conv/pool rank, norms, resize, data-dependent)."""
from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper

from npuready.lint import examples as ex
from npuready.probes.build import X_SHAPE, chain, f32, i64, single
from npuready.probes.probe import Probe

C = X_SHAPE[1]


def _conv(kernel: int, group: int = 1, dims: int = 2, transpose: bool = False):
    shape = (1, C, 4, 8, 8) if dims == 3 else X_SHAPE
    op = "ConvTranspose" if transpose else "Conv"
    w_shape = (C, C // group) + (kernel,) * dims
    attrs = {"kernel_shape": [kernel] * dims, "group": group}
    if transpose:
        attrs["strides"] = [2] * dims
    else:
        attrs["pads"] = [kernel // 2] * (2 * dims)
    nodes = [helper.make_node(op, ["x", "w", "b"], ["y"], name=op.lower(), **attrs)]
    inits = [ex.weights("w", w_shape), ex.const("b", np.zeros(C, np.float32))]
    return chain(nodes, shape, inits, name=f"probe_{op.lower()}{dims}d")


def _pool(op: str, dims: int, **attrs):
    shape = (1, C, 4, 8, 8) if dims == 3 else X_SHAPE
    return single(op, {"kernel_shape": [2] * dims, "strides": [2] * dims, **attrs}, shape=shape,
                  name=f"probe_{op}{dims}d")


def _norm(op: str, opset: int = ex.OPSET, **attrs):
    if op == "BatchNormalization":
        extra = [("s", np.ones(C, np.float32)), ("bias", np.zeros(C, np.float32)),
                 ("mean", np.zeros(C, np.float32)), ("var", np.ones(C, np.float32))]
    elif op == "LayerNormalization":
        extra = [("s", np.ones((8,), np.float32)), ("bias", np.zeros((8,), np.float32))]
    else:
        extra = [("s", np.ones(C, np.float32)), ("bias", np.zeros(C, np.float32))]
    return single(op, attrs, extra=extra, opset=opset)


def _resize(mode: str):
    return single("Resize", {"mode": mode}, extra=[("", None), ("scales", f32(1, 1, 2, 2))],
                  name=f"probe_resize_{mode}")


def _topk():
    return single("TopK", {"axis": 1}, extra=[("k", i64(5))], n_outputs=2,
                  out_dtypes=[TensorProto.FLOAT, TensorProto.INT64])


def _nms():
    nodes = [helper.make_node("NonMaxSuppression", ["x", "scores", "max_out", "iou", "thr"], ["y"], name="nms")]
    inits = [ex.const("scores", np.linspace(0.1, 0.9, 8, dtype=np.float32).reshape(1, 1, 8)),
             ex.const("max_out", i64(4)), ex.const("iou", f32(0.5)), ex.const("thr", f32(0.2))]
    return chain(nodes, (1, 8, 4), inits, outputs=[("y", TensorProto.INT64)], name="probe_nms")


def _range():
    nodes = [helper.make_node("ReduceMax", ["x"], ["m"], name="reducemax", keepdims=0),
             helper.make_node("Cast", ["m"], ["mi"], name="cast", to=TensorProto.INT64),
             helper.make_node("Abs", ["mi"], ["lim"], name="abs"),
             helper.make_node("Range", ["zero", "lim", "one"], ["y"], name="range")]
    return chain(nodes, (4,), [ex.const("zero", np.array(0, np.int64)), ex.const("one", np.array(1, np.int64))],
                 outputs=[("y", TensorProto.INT64)], name="probe_range")


def _compress():
    nodes = [helper.make_node("Greater", ["x", "zero"], ["cond"], name="greater"),
             helper.make_node("Compress", ["x", "cond"], ["y"], name="compress")]
    return chain(nodes, (16,), [ex.const("zero", np.array(0, np.float32))], name="probe_compress")


def _p(name: str, ops: tuple[str, ...], description: str, build) -> Probe:
    return Probe(name=name, group="op", op_types=ops, description=description, build=build)


OP_PROBES: tuple[Probe, ...] = (
    _p("Conv2d_3x3", ("Conv",), "3x3 convolution, 16->16 channels", lambda: _conv(3)),
    _p("DepthwiseConv2d_3x3", ("Conv",), "depthwise 3x3 convolution (group = channels)", lambda: _conv(3, group=C)),
    _p("ConvTranspose2d_2x2", ("ConvTranspose",), "2x2 stride-2 transposed convolution",
       lambda: _conv(2, transpose=True)),
    _p("Conv3d_3x3x3", ("Conv",), "3D convolution (R003)", lambda: _conv(3, dims=3)),
    _p("MaxPool2d", ("MaxPool",), "2x2 max pooling", lambda: _pool("MaxPool", 2)),
    _p("AveragePool2d", ("AveragePool",), "2x2 average pooling", lambda: _pool("AveragePool", 2)),
    _p("MaxPool3d", ("MaxPool",), "3D max pooling (R003's closed hole)", lambda: _pool("MaxPool", 3)),
    _p("AveragePool3d", ("AveragePool",), "3D average pooling (R003's closed hole)", lambda: _pool("AveragePool", 3)),
    _p("LpPool3d", ("LpPool",), "3D Lp pooling, p=2 (R003)", lambda: _pool("LpPool", 3, p=2)),
    _p("GlobalAveragePool", ("GlobalAveragePool",), "global average pooling", lambda: single("GlobalAveragePool")),
    _p("Gemm", ("Gemm",), "fully connected 16->10 with bias",
       lambda: chain([helper.make_node("Gemm", ["x", "w", "b"], ["y"], name="gemm", transB=1)], (1, C),
                     [ex.weights("w", (10, C)), ex.const("b", np.zeros(10, np.float32))], name="probe_gemm")),
    _p("MatMul", ("MatMul",), "batched matrix product with a constant 8x8 matrix",
       lambda: single("MatMul", extra=[("w", np.eye(8, dtype=np.float32))])),
    _p("BatchNormalization", ("BatchNormalization",), "inference-mode batch norm", lambda: _norm("BatchNormalization")),
    _p("LayerNormalization", ("LayerNormalization",), "layer norm over the last axis (R006)",
       lambda: _norm("LayerNormalization", axis=-1)),
    _p("InstanceNormalization", ("InstanceNormalization",), "instance norm (R006)",
       lambda: _norm("InstanceNormalization")),
    _p("GroupNormalization", ("GroupNormalization",), "group norm, 4 groups (R006)",
       lambda: _norm("GroupNormalization", opset=21, num_groups=4)),
    _p("LpNormalization", ("LpNormalization",), "L2 normalisation over channels (R006)",
       lambda: single("LpNormalization", {"axis": 1, "p": 2})),
    _p("Resize_nearest", ("Resize",), "2x nearest upsampling", lambda: _resize("nearest")),
    _p("Resize_linear", ("Resize",), "2x bilinear upsampling (R007)", lambda: _resize("linear")),
    _p("Resize_cubic", ("Resize",), "2x bicubic upsampling (R007)", lambda: _resize("cubic")),
    _p("NonZero", ("NonZero",), "indices of non-zero elements (R002)",
       lambda: single("NonZero", out_dtypes=[TensorProto.INT64])),
    _p("TopK_constK", ("TopK",), "top-5 over channels, constant K", _topk),
    _p("NonMaxSuppression", ("NonMaxSuppression",), "NMS over 8 boxes (R002)", _nms),
    _p("Unique", ("Unique",), "distinct values of a vector (R002)",
       lambda: single("Unique", {"sorted": 1}, shape=(16,), n_outputs=4,
                      out_dtypes=[TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT64, TensorProto.INT64])),
    _p("Compress", ("Compress",), "keep positive elements (R002)", _compress),
    _p("Range_runtime", ("Range",), "Range with a limit computed at run time (R002)", _range),
    _p("Concat", ("Concat",), "concatenate with itself over channels",
       lambda: chain([helper.make_node("Concat", ["x", "x"], ["y"], name="concat", axis=1)], X_SHAPE,
                     name="probe_concat")),
    _p("Reshape_Transpose", ("Reshape", "Transpose"), "channel shuffle: reshape, transpose, reshape",
       lambda: chain([helper.make_node("Reshape", ["x", "s1"], ["r"], name="reshape1"),
                      helper.make_node("Transpose", ["r"], ["t"], name="transpose", perm=[0, 2, 1, 3, 4]),
                      helper.make_node("Reshape", ["t", "s2"], ["y"], name="reshape2")], X_SHAPE,
                     [ex.const("s1", i64(1, 4, 4, 8, 8)), ex.const("s2", i64(*X_SHAPE))], name="probe_shuffle")),
)
