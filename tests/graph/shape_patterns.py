"""Small graphs (onnx.helper, no torch) with the shape-computation patterns real exports contain.

Each one is what ``torch.onnx.export(..., dynamo=False)`` writes for a common module, cut down to a few
nodes: onnx's own shape inference (with data propagation) leaves its shapes unknown, onnxruntime's
symbolic inference resolves them. ``batch`` makes dim 0 of the input symbolic ("batch").
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


def _model(nodes, x_shape, out_name, inits, name, out_rank):
    x = helper.make_tensor_value_info("image", TensorProto.FLOAT, list(x_shape))
    y = helper.make_tensor_value_info(out_name, TensorProto.FLOAT, [None] * out_rank)  # rank only, as exported
    graph = helper.make_graph(nodes, name, [x], [y], [numpy_helper.from_array(v, k) for k, v in inits.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=8)


def _c(name: str, value) -> onnx.NodeProto:
    return helper.make_node("Constant", [], [name], name=name, value=numpy_helper.from_array(np.asarray(value), name))


def _conv(x: str, y: str, cin: int, cout: int, name: str, inits: dict) -> onnx.NodeProto:
    inits[f"{name}.w"] = np.full((cout, cin, 1, 1), 0.01, np.float32)
    return helper.make_node("Conv", [x, f"{name}.w"], [y], name=name, kernel_shape=[1, 1])


def chunk_conv(batch: "int | str" = 1) -> onnx.ModelProto:
    """``torch.chunk(x, 2, dim=1)[0]`` then a 1x1 conv: Shape → Gather → Add → Div → Mul → Slice ends
    (ShuffleNetV2's split, YOLO's DFL head). onnx's data propagation stops at the Div."""
    inits: dict = {}
    nodes = [
        helper.make_node("Shape", ["image"], ["shape"], name="shape"),
        _c("axis1", np.array([1], np.int64)), _c("one", np.array([1], np.int64)),
        _c("two", np.array([2], np.int64)), _c("zero", np.array([0], np.int64)),
        helper.make_node("Gather", ["shape", "axis1"], ["c"], name="gather_c", axis=0),
        helper.make_node("Add", ["c", "one"], ["c1"], name="add"),
        helper.make_node("Div", ["c1", "two"], ["half"], name="div"),
        helper.make_node("Mul", ["half", "one"], ["end"], name="mul"),
        helper.make_node("Slice", ["image", "zero", "end", "axis1"], ["first"], name="slice"),
        _conv("first", "out", 4, 6, "conv", inits),
    ]
    return _model(nodes, (batch, 8, 5, 5), "out", inits, "chunk_conv", 4)


def channel_shuffle(batch: "int | str" = 1, groups: int = 2) -> onnx.ModelProto:
    """ShuffleNet's channel shuffle: ``x.view(b, g, c // g, h, w).transpose(1, 2).reshape(b, -1, h, w)``
    with b, c, h, w read from ``x.size()`` (Shape → Gather → Div → Unsqueeze → Concat → Reshape)."""
    inits: dict = {}
    nodes = [helper.make_node("Shape", ["image"], ["shape"], name="shape"), _c("g", np.array(groups, np.int64)),
             _c("minus1", np.array([-1], np.int64)), _c("ax0", np.array([0], np.int64))]
    dims = []
    for i, d in enumerate("bchw"):
        nodes += [_c(f"i{d}", np.array(i, np.int64)),
                  helper.make_node("Gather", ["shape", f"i{d}"], [d], name=f"gather_{d}", axis=0)]
    nodes += [helper.make_node("Div", ["c", "g"], ["cg"], name="div")]
    for d in ("b", "g", "cg", "h", "w"):
        nodes.append(helper.make_node("Unsqueeze", [d, "ax0"], [f"u_{d}"], name=f"unsqueeze_{d}"))
        dims.append(f"u_{d}")
    nodes += [
        helper.make_node("Concat", dims, ["view_shape"], name="concat_view", axis=0),
        helper.make_node("Reshape", ["image", "view_shape"], ["grouped"], name="view"),
        helper.make_node("Transpose", ["grouped"], ["swapped"], name="transpose", perm=[0, 2, 1, 3, 4]),
        helper.make_node("Concat", ["u_b", "minus1", "u_h", "u_w"], ["back_shape"], name="concat_back", axis=0),
        helper.make_node("Reshape", ["swapped", "back_shape"], ["shuffled"], name="reshape_back"),
        _conv("shuffled", "out", 8, 8, "conv", inits),
    ]
    return _model(nodes, (batch, 8, 5, 5), "out", inits, "channel_shuffle", 4)


def cls_token(batch: "int | str" = 1, dim: int = 8) -> onnx.ModelProto:
    """ViT's ``cls_token.expand(B, -1, -1)`` concatenated to the patch tokens: the expand shape goes
    through ConstantOfShape → Mul → Equal → Where, which onnx's data propagation does not evaluate."""
    inits: dict = {"cls_token": np.zeros((1, 1, dim), np.float32), "w": np.full((dim, dim), 0.01, np.float32)}
    nodes = [
        _c("tok_shape", np.array([0, 4, dim], np.int64)),  # Reshape: 0 copies the batch
        helper.make_node("Reshape", ["image", "tok_shape"], ["tokens"], name="to_tokens"),
        helper.make_node("Shape", ["tokens"], ["shape"], name="shape"), _c("i0", np.array(0, np.int64)),
        helper.make_node("Gather", ["shape", "i0"], ["b"], name="gather_b", axis=0),
        _c("ax0", np.array([0], np.int64)),
        helper.make_node("Unsqueeze", ["b", "ax0"], ["ub"], name="unsqueeze_b"),
        _c("minus1s", np.array([-1, -1], np.int64)),
        helper.make_node("Concat", ["ub", "minus1s"], ["want"], name="concat_want", axis=0),
        _c("three", np.array([3], np.int64)),
        helper.make_node("ConstantOfShape", ["three"], ["ones"], name="ones",
                         value=numpy_helper.from_array(np.array([1], np.int64))),
        _c("minus1", np.array(-1, np.int64)),
        helper.make_node("Mul", ["ones", "minus1"], ["neg"], name="neg"),
        helper.make_node("Equal", ["want", "neg"], ["is_neg"], name="equal"),
        helper.make_node("Where", ["is_neg", "ones", "want"], ["expand_shape"], name="where"),
        helper.make_node("Expand", ["cls_token", "expand_shape"], ["cls"], name="expand_cls"),
        helper.make_node("Concat", ["cls", "tokens"], ["seq"], name="concat_cls", axis=1),
        helper.make_node("MatMul", ["seq", "w"], ["out"], name="proj"),
    ]
    return _model(nodes, (batch, 4, 1, dim), "out", inits, "cls_token", 3)


def flatten_gemm(batch: "int | str" = 1) -> onnx.ModelProto:
    """``x.view(x.size(0), -1)`` before a Linear: Shape → Gather → Unsqueeze → Concat → Reshape."""
    inits = {"fc.w": np.full((3, 8 * 2 * 2), 0.01, np.float32), "fc.b": np.zeros(3, np.float32)}
    nodes = [
        _conv("image", "feat", 4, 8, "conv", inits),
        helper.make_node("Shape", ["feat"], ["shape"], name="shape"), _c("i0", np.array(0, np.int64)),
        helper.make_node("Gather", ["shape", "i0"], ["b"], name="gather_b", axis=0),
        _c("ax0", np.array([0], np.int64)), _c("minus1", np.array([-1], np.int64)),
        helper.make_node("Unsqueeze", ["b", "ax0"], ["ub"], name="unsqueeze_b"),
        helper.make_node("Concat", ["ub", "minus1"], ["flat_shape"], name="concat_flat", axis=0),
        helper.make_node("Reshape", ["feat", "flat_shape"], ["flat"], name="flatten"),
        helper.make_node("Gemm", ["flat", "fc.w", "fc.b"], ["out"], name="fc", transB=1),
    ]
    return _model(nodes, (batch, 4, 2, 2), "out", inits, "flatten_gemm", 2)
