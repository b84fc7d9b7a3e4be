"""BatchNormalization folded into Conv/ConvTranspose/Gemm, or lowered to Mul+Add (npuready.importer.batchnorm)."""
from __future__ import annotations

import numpy as np
from onnx import helper
from importer_models import RNG, assert_same_outputs, bn_node, bn_params, const, model, ops, value

from npuready.importer import canonicalise

C = 6


def _conv_bn(bias=True, group=1, op="Conv"):
    cin = 4
    w = RNG.normal(size=(C, cin // group, 3, 3) if op == "Conv" else (cin, C // group, 3, 3)).astype(np.float32)
    inputs = ["x", "w"] + (["b"] if bias else [])
    conv = helper.make_node(op, inputs, ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=group)
    inits = [const("w", w)] + ([const("b", RNG.normal(size=C).astype(np.float32))] if bias else []) + bn_params("p", C)
    return model([conv, bn_node("p", "c", "y")], [value("x", [1, cin, 5, 5])], [value("y", None)], inits)


def _x(shape=(1, 4, 5, 5)):
    return {"x": RNG.normal(size=shape).astype(np.float32)}


def test_bn_after_conv_folds_into_its_weight_and_bias():
    m = _conv_bn()
    out, imported = canonicalise(m)
    assert ops(out) == [("conv", "Conv")]
    assert out.graph.node[0].output[0] == "y"
    assert [(r.kind, r.nodes) for r in imported.rewrites] == [("batchnorm-folded", ("bn", "conv"))]
    assert {t.name for t in out.graph.initializer} == {"w_bnfold", "conv_bias_bnfold"}  # the originals are unread
    assert_same_outputs(m, out, _x())


def test_bn_after_conv_without_bias_gets_one():
    m = _conv_bn(bias=False)
    out, _ = canonicalise(m)
    assert list(out.graph.node[0].input) == ["x", "w_bnfold", "conv_bias_bnfold"]
    assert_same_outputs(m, out, _x())


def test_bn_after_grouped_conv_transpose_folds_per_output_channel():
    m = _conv_bn(op="ConvTranspose", group=2)
    out, imported = canonicalise(m)
    assert ops(out) == [("conv", "ConvTranspose")]
    assert imported.counts() == {"batchnorm-folded": 1}
    assert_same_outputs(m, out, _x())


def test_bn_after_gemm_folds_with_trans_b_and_beta():
    w = RNG.normal(size=(C, 4)).astype(np.float32)
    gemm = helper.make_node("Gemm", ["x", "w", "b"], ["g"], name="gemm", transB=1, alpha=0.5, beta=2.0)
    inits = [const("w", w), const("b", RNG.normal(size=C).astype(np.float32))] + bn_params("p", C)
    m = model([gemm, bn_node("p", "g", "y")], [value("x", [3, 4])], [value("y", [3, C])], inits)
    out, imported = canonicalise(m)
    assert ops(out) == [("gemm", "Gemm")]
    assert_same_outputs(m, out, _x((3, 4)))


def test_bn_whose_conv_output_has_another_reader_is_lowered_to_mul_add():
    m = _conv_bn()
    m.graph.node.append(helper.make_node("Relu", ["c"], ["side"], name="side"))
    m.graph.output.append(value("side", None))
    out, imported = canonicalise(m)
    assert ops(out) == [("conv", "Conv"), ("bn/mul", "Mul"), ("bn/add", "Add"), ("side", "Relu")]
    (r,) = imported.rewrites
    assert r.kind == "batchnorm-lowered" and "other readers" in r.detail
    scale = {t.name: t for t in out.graph.initializer}["bn_scale"]
    assert list(scale.dims) == [C, 1, 1]
    assert_same_outputs(m, out, _x())


def test_bn_on_a_graph_input_is_lowered_with_the_rank_of_its_input():
    m = model([bn_node("p", "x", "y")], [value("x", [2, C, 3])], [value("y", [2, C, 3])], bn_params("p", C))
    out, imported = canonicalise(m)
    assert ops(out) == [("bn/mul", "Mul"), ("bn/add", "Add")]
    assert list({t.name: t for t in out.graph.initializer}["bn_shift"].dims) == [C, 1]
    assert_same_outputs(m, out, _x((2, C, 3)))


def test_bn_with_computed_statistics_stays():
    m = model([bn_node("p", "x", "y")], [value("x", [1, C, 2, 2]), value("p_v", [C])], [value("y", None)],
              bn_params("p", C)[:3])
    out, imported = canonicalise(m)
    assert ops(out) == [("bn", "BatchNormalization")]
    assert [(r.kind, r.detail) for r in imported.rewrites] == [
        ("batchnorm-kept", "scale, bias, mean or variance is not a constant")]


def test_bn_params_in_constant_nodes_fold_and_the_constants_go():
    m = _conv_bn()
    for t in [t for t in m.graph.initializer if t.name.startswith("p_")]:
        m.graph.node.insert(0, helper.make_node("Constant", [], [t.name], name=f"k_{t.name}", value=t))
    keep = [t for t in m.graph.initializer if not t.name.startswith("p_")]
    del m.graph.initializer[:]
    m.graph.initializer.extend(keep)
    out, _ = canonicalise(m)
    assert ops(out) == [("conv", "Conv")]
    assert_same_outputs(m, out, _x())
