"""What-if rewrites: exact equivalents compute the same outputs; swaps and bypasses change only their nodes."""
from __future__ import annotations

import numpy as np
import onnxruntime as ort

from intake_models import conv_net, erf_gelu, sum_branches
from npuready.intake.whatif import bypass, replacement_op, rewrite_equivalents, swap_ops
from npuready.targets import load_target


def _run(m, x):
    s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return s.run(None, {"x": x})[0]


def test_sum_to_add_is_exact():
    m = sum_branches()
    x = np.random.default_rng(0).standard_normal((1, 3, 8, 8)).astype(np.float32)
    r = rewrite_equivalents(m, ["join"])
    assert [n.op_type for n in r.graph.node] == ["Conv", "Conv", "Add", "Relu", "Conv"]
    assert np.array_equal(_run(m, x), _run(r, x))


def test_swap_to_clip_is_relu6():
    m = swap_ops(conv_net("Sigmoid"), ["act1"], "Clip")
    x = np.random.default_rng(1).standard_normal((1, 1, 16, 16)).astype(np.float32) * 10
    ref = swap_ops(conv_net("Sigmoid"), ["act1"], "Relu")
    node = next(n for n in m.graph.node if n.name == "act1")
    assert node.op_type == "Clip" and len(node.input) == 3
    assert _run(m, x).shape == _run(ref, x).shape == (1, 10)


def test_bypass_makes_identity():
    m = bypass(conv_net("Sigmoid"), ["act1"])
    assert next(n for n in m.graph.node if n.name == "act1").op_type == "Identity"


def test_replacement_preference_follows_the_target():
    assert replacement_op(load_target("edge-10")) == "HardSwish"
    assert replacement_op(load_target("edge-10-nolut")) == "Clip"


def test_erf_gelu_pattern_is_swapped_as_a_whole():
    m = swap_ops(erf_gelu(), ["erf"], "Relu")
    assert [(n.op_type, n.name) for n in m.graph.node] == [("Relu", "mul_half")]
    x = np.linspace(-3, 3, 8, dtype=np.float32)[None]
    assert np.array_equal(_run(m, x), np.maximum(x, 0))
