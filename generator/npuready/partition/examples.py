"""Example models for the partition planner, built in code with onnx.helper (deterministic weights,
static shapes). Used by the tests, the NNAPI comparison and the docs.

- ``yolo_like``: conv backbone, detection head with Sigmoid, anchor-free box decoding (dist2bbox)
  and NonMaxSuppression inside the graph; a Shape→Slice→Concat chain computes a Reshape target.
- ``uint8_classifier``: the graph starts with uint8 pre-processing (Cast, Div, Sub, Div,
  Transpose NHWC→NCHW), ends with ArgMax.
- ``transformer_like``: conv blocks with token mixing; LayerNormalization between them (the
  fragmented case on targets that cannot run LayerNorm).
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import onnx
from onnx import TensorProto, helper

from npuready.lint.examples import const, model, value, weights

N = helper.make_node


def _conv(name: str, x: str, y: str, cin: int, cout: int, k: int, stride: int, seed: int, inits: list,
          bias: float = 0.0):
    inits += [weights(f"{name}.w", (cout, cin, k, k), seed=seed), const(f"{name}.b", np.full(cout, bias, np.float32))]
    return N("Conv", [x, f"{name}.w", f"{name}.b"], [y], name=name, kernel_shape=[k, k], strides=[stride, stride],
             pads=[k // 2] * 4)


def yolo_like() -> onnx.ModelProto:
    inits: list = []
    grid, stride, classes = 16, 4, 3
    ys, xs = np.meshgrid(np.arange(grid, dtype=np.float32) + 0.5, np.arange(grid, dtype=np.float32) + 0.5,
                         indexing="ij")
    anchors = np.stack([xs.ravel(), ys.ravel()])[None]  # [1, 2, 256] (x, y)
    nodes = [
        _conv("stem", "images", "s1", 3, 8, 3, 2, 1, inits), N("Relu", ["s1"], ["s1r"], name="stem_relu"),
        _conv("stage", "s1r", "s2", 8, 16, 3, 2, 2, inits), N("Relu", ["s2"], ["feat"], name="stage_relu"),
        _conv("cls_head", "feat", "cls_logits", 16, classes, 1, 1, 3, inits, bias=-0.5),
        _conv("reg_head", "feat", "reg_raw", 16, 4, 1, 1, 4, inits), N("Relu", ["reg_raw"], ["reg"], name="reg_relu"),
        # Reshape target from the static shape: a folded shape-helper chain
        N("Shape", ["cls_logits"], ["cls_shape"], name="cls_shape"),
        N("Slice", ["cls_shape", "sl_start", "sl_end"], ["cls_nc"], name="cls_shape_nc"),
        N("Concat", ["cls_nc", "minus_one"], ["cls_target"], name="cls_target", axis=0),
        N("Reshape", ["cls_logits", "cls_target"], ["cls_flat"], name="cls_flatten"),
        N("Sigmoid", ["cls_flat"], ["scores"], name="cls_sigmoid"),
        N("Reshape", ["reg", "reg_shape"], ["reg_flat"], name="reg_flatten"),
        N("Split", ["reg_flat", "split_22"], ["lt", "rb"], name="reg_split", axis=1),
        N("Constant", [], ["anchors"], name="anchor_points", value=const("anchors", anchors)),
        N("Sub", ["anchors", "lt"], ["x1y1"], name="decode_x1y1"),
        N("Add", ["anchors", "rb"], ["x2y2"], name="decode_x2y2"),
        N("Concat", ["x1y1", "x2y2"], ["xyxy"], name="decode_concat", axis=1),
        N("Mul", ["xyxy", "stride"], ["boxes_t"], name="decode_stride"),
        N("Transpose", ["boxes_t"], ["boxes"], name="boxes_transpose", perm=[0, 2, 1]),
        N("NonMaxSuppression", ["boxes", "scores", "max_out", "iou_thr", "score_thr"], ["selected"], name="nms"),
        N("Slice", ["selected", "col2", "col3", "axis1"], ["sel_col"], name="nms_box_column"),
        N("Squeeze", ["sel_col", "axis1"], ["box_idx"], name="nms_box_index"),
        N("Squeeze", ["boxes", "axis0"], ["boxes0"], name="boxes_batch0"),
        N("Gather", ["boxes0", "box_idx"], ["det_boxes"], name="gather_boxes", axis=0),
    ]
    inits += [
        const("sl_start", np.array([0], np.int64)), const("sl_end", np.array([2], np.int64)),
        const("minus_one", np.array([-1], np.int64)), const("reg_shape", np.array([1, 4, grid * grid], np.int64)),
        const("split_22", np.array([2, 2], np.int64)), const("stride", np.array(stride, np.float32)),
        const("max_out", np.array([20], np.int64)), const("iou_thr", np.array([0.5], np.float32)),
        const("score_thr", np.array([0.3], np.float32)),
        const("col2", np.array([2], np.int64)), const("col3", np.array([3], np.int64)),
        const("axis1", np.array([1], np.int64)), const("axis0", np.array([0], np.int64)),
    ]
    outputs = [value("selected", ["K", 3], TensorProto.INT64), value("det_boxes", ["K", 4]),
               value("scores", [1, classes, grid * grid])]
    return model(nodes, [value("images", [1, 3, 64, 64])], outputs, inits, name="yolo_like")


def uint8_classifier() -> onnx.ModelProto:
    inits: list = [
        const("scale255", np.array(255.0, np.float32)),
        const("mean", np.array([0.485, 0.456, 0.406], np.float32)),
        const("std", np.array([0.229, 0.224, 0.225], np.float32)),
        weights("fc.w", (10, 16), seed=13), const("fc.b", np.zeros(10, np.float32)),
    ]
    nodes = [
        N("Cast", ["image"], ["image_f"], name="to_float", to=TensorProto.FLOAT),
        N("Div", ["image_f", "scale255"], ["unit"], name="scale_255"),
        N("Sub", ["unit", "mean"], ["centred"], name="sub_mean"),
        N("Div", ["centred", "std"], ["normed"], name="div_std"),
        N("Transpose", ["normed"], ["nchw"], name="nhwc_to_nchw", perm=[0, 3, 1, 2]),
        _conv("conv1", "nchw", "c1", 3, 8, 3, 1, 11, inits), N("Relu", ["c1"], ["r1"], name="relu1"),
        _conv("conv2", "r1", "c2", 8, 16, 3, 2, 12, inits), N("Relu", ["c2"], ["r2"], name="relu2"),
        N("GlobalAveragePool", ["r2"], ["gap"], name="gap"),
        N("Flatten", ["gap"], ["flat"], name="flatten"),
        N("Gemm", ["flat", "fc.w", "fc.b"], ["logits"], name="fc", transB=1),
        N("ArgMax", ["logits"], ["label"], name="argmax", axis=1, keepdims=1),
    ]
    outputs = [value("logits", [1, 10]), value("label", [1, 1], TensorProto.INT64)]
    return model(nodes, [value("image", [1, 32, 32, 3], TensorProto.UINT8)], outputs, inits, name="uint8_classifier")


def transformer_like() -> onnx.ModelProto:
    inits: list = [const("tok_shape", np.array([1, 16, 256], np.int64)),
                   const("img_shape", np.array([1, 16, 16, 16], np.int64)),
                   weights("fc.w", (10, 16), seed=29), const("fc.b", np.zeros(10, np.float32))]
    nodes = [_conv("conv_in", "x", "c0", 3, 16, 3, 2, 21, inits), N("Relu", ["c0"], ["f0"], name="relu_in")]
    src = "f0"
    for b in range(2):
        p = f"blk{b}"
        inits += [const(f"{p}.ln.g", np.ones(16, np.float32)), const(f"{p}.ln.b", np.zeros(16, np.float32)),
                  weights(f"{p}.w1", (16, 32), seed=22 + b), weights(f"{p}.w2", (32, 16), seed=24 + b)]
        nodes += [
            N("Reshape", [src, "tok_shape"], [f"{p}.seq"], name=f"{p}_to_tokens"),
            N("Transpose", [f"{p}.seq"], [f"{p}.tok"], name=f"{p}_tokens_t", perm=[0, 2, 1]),
            N("LayerNormalization", [f"{p}.tok", f"{p}.ln.g", f"{p}.ln.b"], [f"{p}.norm"], name=f"{p}_layernorm",
              axis=-1),
            N("MatMul", [f"{p}.norm", f"{p}.w1"], [f"{p}.h"], name=f"{p}_mlp_up"),
            N("Relu", [f"{p}.h"], [f"{p}.hr"], name=f"{p}_mlp_relu"),
            N("MatMul", [f"{p}.hr", f"{p}.w2"], [f"{p}.m"], name=f"{p}_mlp_down"),
            N("Add", [f"{p}.m", f"{p}.tok"], [f"{p}.res"], name=f"{p}_residual"),
            N("Transpose", [f"{p}.res"], [f"{p}.back"], name=f"{p}_channels_t", perm=[0, 2, 1]),
            N("Reshape", [f"{p}.back", "img_shape"], [f"{p}.img"], name=f"{p}_to_image"),
            _conv(f"{p}_conv", f"{p}.img", f"{p}.c", 16, 16, 3, 1, 26 + b, inits),
            N("Relu", [f"{p}.c"], [f"{p}.out"], name=f"{p}_conv_relu"),
        ]
        src = f"{p}.out"
    nodes += [N("GlobalAveragePool", [src], ["gap"], name="gap"), N("Flatten", ["gap"], ["flat"], name="flatten"),
              N("Gemm", ["flat", "fc.w", "fc.b"], ["logits"], name="fc", transB=1)]
    return model(nodes, [value("x", [1, 3, 32, 32])], [value("logits", [1, 10])], inits, name="transformer_like")


EXAMPLES: dict[str, Callable[[], onnx.ModelProto]] = {
    "yolo_like": yolo_like,
    "uint8_classifier": uint8_classifier,
    "transformer_like": transformer_like,
}


def example_inputs(m: onnx.ModelProto, seed: int = 0) -> dict[str, np.ndarray]:
    """Deterministic random feeds for every graph input (uint8 in [0, 255], floats in [0, 1))."""
    rng = np.random.default_rng(seed)
    init = {t.name for t in m.graph.initializer}
    feeds = {}
    for vi in m.graph.input:
        if vi.name in init:
            continue
        tt = vi.type.tensor_type
        shape = [d.dim_value for d in tt.shape.dim]
        dtype = helper.tensor_dtype_to_np_dtype(tt.elem_type)
        if np.issubdtype(dtype, np.integer):
            feeds[vi.name] = rng.integers(0, 256, size=shape).astype(dtype)
        else:
            feeds[vi.name] = rng.random(shape, dtype=np.float32).astype(dtype)
    return feeds
