"""Representative cases of the target-dependent rules, as tiny graphs, for the generated severity tables.

``cases(rule_id, target)`` gives one small ONNX graph per case; ``npuready.lint.policy.matrix`` runs the
rule itself on it (and ``node_support``, which the partition planner uses), so docs/targets.md and the
rule pages show what lint reports, not a hand-kept copy of it.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from onnx import helper

from npuready.graph import Graph, load
from npuready.lint import examples as ex
from npuready.targets import Target
from npuready.targets.support import ACTIVATION_OPS, RUNNING_ACTIVATION_MODES, Support, node_support

_NORM_INPUTS = {"LayerNormalization": ["x", "s", "b"], "InstanceNormalization": ["x", "s1", "b1"],
                "GroupNormalization": ["x", "s1", "b1"], "LpNormalization": ["x"], "MeanVarianceNormalization": ["x"],
                "RMSNormalization": ["x", "s"]}


def _graph(nodes, shape_in, shape_out, inits=(), canonical: bool = True) -> Graph:
    return load(ex.model(nodes, [ex.value("x", shape_in)], [ex.value("y", shape_out)], list(inits), name="case"),
                canonical=canonical)


@lru_cache(maxsize=None)
def _gelu() -> Graph:
    nodes = [helper.make_node("Div", ["x", "sqrt2"], ["d"], name="div"),
             helper.make_node("Erf", ["d"], ["e"], name="erf"),
             helper.make_node("Add", ["e", "one"], ["a"], name="add"),
             helper.make_node("Mul", ["x", "a"], ["m"], name="mul"),
             helper.make_node("Mul", ["m", "half"], ["y"], name="half")]
    inits = [ex.const(n, np.array(v, np.float32)) for n, v in (("sqrt2", 2 ** 0.5), ("one", 1.0), ("half", 0.5))]
    return _graph(nodes, [1, 16, 64], [1, 16, 64], inits)


@lru_cache(maxsize=None)
def _norm(op: str) -> Graph:
    shape = [1, 16, 64] if op in ("LayerNormalization", "RMSNormalization") else [1, 8, 16, 16]
    attrs = {"num_groups": 2} if op == "GroupNormalization" else {}
    inits = [ex.const("s", np.ones(64, np.float32)), ex.const("b", np.zeros(64, np.float32)),
             ex.const("s1", np.ones(8, np.float32)), ex.const("b1", np.zeros(8, np.float32))]
    return _graph([helper.make_node(op, _NORM_INPUTS[op], ["y"], name="node", **attrs)], shape, shape, inits)


@lru_cache(maxsize=None)
def _unfolded_bn() -> Graph:
    inits = [ex.const(n, np.full(8, v, np.float32)) for n, v in (("s", 1), ("b", 0), ("m", 0), ("v", 1))]
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("BatchNormalization", ["r", "s", "b", "m", "v"], ["y"], name="node")]
    # as written: the loader's importer would lower it to Mul+Add (the row describes the op itself)
    return _graph(nodes, [1, 8, 16, 16], [1, 8, 16, 16], inits, canonical=False)


@lru_cache(maxsize=None)
def _resize(mode: str, factor: int, transform: str) -> Graph:
    node = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="node", mode=mode,
                            coordinate_transformation_mode=transform)
    scales = ex.const("scales", np.array([1, 1, factor, factor], np.float32))
    return _graph([node], [1, 8, 8, 8], [1, 8, 8 * factor, 8 * factor], [scales])


_R006 = ("LayerNormalization", "InstanceNormalization", "GroupNormalization", "LpNormalization",
         "MeanVarianceNormalization", "RMSNormalization")
_R007 = (("linear", 2, "asymmetric"), ("linear", 2, "half_pixel"), ("linear", 4, "half_pixel"),
         ("linear", 3, "asymmetric"), ("cubic", 2, "asymmetric"))


@lru_cache(maxsize=None)
def _softsign() -> Graph:
    return _graph([helper.make_node("Softsign", ["x"], ["y"], name="node")], [1, 8], [1, 8])


@dataclass(frozen=True)
class Case:
    label: str
    graph: Graph
    node: str  # the node the row is about
    how: str = ""  # overrides node_support's phrase (a row standing for several ops)

    def support(self, target: Target) -> Support:
        return node_support(self.graph, self.graph.node(self.node), target)


def _norm_label(op: str) -> str:
    if op in ("LayerNormalization", "RMSNormalization"):
        return f"{op} over [1,16,64] (axis -1)"
    return f"{op} on [1,8,16,16]"


def cases(rule_id: str, target: Target) -> list[Case]:
    """The case graphs of R005/R006/R007; [] for rules whose severity is target-independent."""
    if rule_id == "R005":
        refused = sorted(op for op in ACTIVATION_OPS | set(target.activations)
                         if target.activation_mode(op) not in RUNNING_ACTIVATION_MODES)
        return [Case("Erf of an exact-GELU export (Div, Erf, Add, Mul, Mul)", _gelu(), "erf"),
                Case("an activation the target marks 'host' or does not list (here Softsign)", _softsign(), "node",
                     f"{target.name} cannot run {', '.join(refused)}")]
    if rule_id == "R006":
        return [Case("BatchNormalization that does not fold (after Relu)", _unfolded_bn(), "node")] + [
            Case(_norm_label(op), _norm(op), "node") for op in _R006]
    if rule_id == "R007":
        return [Case(f"Resize {mode} {factor}x, {transform}", _resize(mode, factor, transform), "node")
                for mode, factor, transform in _R007]
    return []
