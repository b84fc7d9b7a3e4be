"""Tiny model builders shared by the per-rule tests (onnx.helper only)."""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from npuready.lint import examples as ex
from npuready.lint import lint

TARGET = "edge-10"


def one(op: str, x_shape, y_shape, attrs=None, extra=(), extra_inputs=(), opset=ex.OPSET, domain="",
        out_dtype=TensorProto.FLOAT, extra_opsets=()) -> onnx.ModelProto:
    """x (+ initializers / graph inputs) → op → y."""
    names = ["x"] + [n for n, _ in extra] + [vi.name for vi in extra_inputs]
    node = helper.make_node(op, names, ["y"], name="n", domain=domain, **(attrs or {}))
    return ex.model([node], [ex.value("x", x_shape), *extra_inputs], [ex.value("y", y_shape, out_dtype)],
                    [ex.const(n, a) for n, a in extra if n], opset=opset, extra_opsets=extra_opsets)


def ids(model, **kw) -> list[str]:
    return [f.rule for f in lint(model, target=kw.pop("target", TARGET), **kw).findings]


def findings(model, rule_id, **kw):
    return lint(model, target=kw.pop("target", TARGET), **kw).by_rule(rule_id)


def wrap_in_if(inner: onnx.ModelProto) -> onnx.ModelProto:
    """Put ``inner``'s graph in the then-branch of an If; the else-branch yields zeros of the same shape."""
    g = inner.graph
    out = g.output[0]
    shape = [d.dim_value for d in out.type.tensor_type.shape.dim]
    then = helper.make_graph(list(g.node), "then", [], [out], initializer=list(g.initializer))
    zeros = numpy_helper.from_array(np.zeros(shape, np.float32), "zeros")
    other = helper.make_graph([helper.make_node("Constant", [], ["else_y"], name="zeros", value=zeros)], "else", [],
                              [ex.value("else_y", shape)])
    node = helper.make_node("If", ["cond"], ["out"], name="if", then_branch=then, else_branch=other)
    return ex.model([node], [g.input[0], ex.value("cond", [], TensorProto.BOOL)], [ex.value("out", shape)],
                    name="if_model")


def const_i64(*v):
    return np.array(v, dtype=np.int64)
