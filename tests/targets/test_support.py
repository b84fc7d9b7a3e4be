"""node_support: what a target runs, read from its declarations ([activations], [norms], [resize], op table)."""
from __future__ import annotations

import itertools
import types

import numpy as np
import pytest
from onnx import helper

from npuready.errors import InputError
from npuready.graph import load
from npuready.lint import examples as ex
from npuready.targets import load_target, parse_target_file
from npuready.targets.load import DATA_DIR
from npuready.targets.support import node_support

ONNX_TO_TFLITE = {"asymmetric": (False, False), "align_corners": (True, False), "half_pixel": (False, True)}


def _resize(ih, iw, oh, ow, mode="linear", transform="asymmetric", channels=8):
    node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="rz", mode=mode,
                            coordinate_transformation_mode=transform)
    sizes = ex.const("sizes", np.array([1, channels, oh, ow], np.int64))
    g = load(ex.model([node], [ex.value("x", [1, channels, ih, iw])], [ex.value("y", [1, channels, oh, ow])], [sizes]))
    return node_support(g, g.node("rz"), load_target("ethos-u55-128"))


@pytest.mark.parametrize("transform", sorted(ONNX_TO_TFLITE))
@pytest.mark.parametrize("mode", ["linear", "nearest"])
def test_resize_constraints_equal_velas_own_checks(mode, transform):
    """Our reading of the mirror's [resize] table agrees with Vela 5.2.0's constraint functions on a grid of shapes."""
    vela = pytest.importorskip("ethosu.vela.tflite_supported_operators")
    ops = vela.TFLiteSupportedOperators
    align, half = ONNX_TO_TFLITE[transform]
    sizes = (1, 2, 3, 4, 5, 8, 9, 16, 17, 32)
    checked = 0
    for ih, iw, oh, ow in itertools.product((1, 2, 4, 5), (1, 4, 5), sizes, sizes):
        op = types.SimpleNamespace(attrs={"align_corners": align, "half_pixel_centers": half},
                                   ifm=types.SimpleNamespace(shape=[1, ih, iw, 8]),
                                   ofm=types.SimpleNamespace(shape=[1, oh, ow, 8]))
        ok = ops.constraint_resize(op)[0] and ops.constraint_resize_attrs(op)[0]
        if mode == "linear":
            ok = ok and ops.constraint_resizebi_half_pixel_centers_dims(op)[0]
        ours = _resize(ih, iw, oh, ow, mode, transform)
        assert ours.runs is ok, (ih, iw, oh, ow, ours.how)
        checked += 1
    assert checked == 4 * 3 * len(sizes) ** 2


def test_resize_transforms_without_a_tflite_equivalent_stay_on_the_host():
    s = _resize(8, 8, 16, 16, "linear", "tf_crop_and_resize")
    assert not s.runs and "coordinate_transformation_mode 'tf_crop_and_resize'" in s.how
    assert not _resize(8, 8, 16, 16, "cubic").runs
    assert _resize(8, 8, 16, 16, "linear", "pytorch_half_pixel").runs  # = half_pixel for outputs longer than 1


def _layernorm(shape, axis=-1):
    c = shape[axis]
    node = helper.make_node("LayerNormalization", ["x", "s", "b"], ["y"], name="ln", axis=axis)
    inits = [ex.const("s", np.ones(c, np.float32)), ex.const("b", np.zeros(c, np.float32))]
    g = load(ex.model([node], [ex.value("x", list(shape))], [ex.value("y", list(shape))], inits))
    return g, g.node("ln")


def test_layernorm_on_the_vela_mirror_is_lowered_within_mean_limits():
    t = load_target("ethos-u55-128")
    s = node_support(*_layernorm([1, 197, 192]), t)
    assert (s.runs, s.mode) == (True, "lowered") and "MEAN/SUB/MUL" in s.how
    assert not node_support(*_layernorm([1, 2, 4096]), t).runs  # reduced axis must be < 4096
    assert "one of h, w, c to be 1" in node_support(*_layernorm([1, 7, 7, 96]), t).how
    assert node_support(*_layernorm([1, 1, 7, 96]), t).runs
    assert node_support(*_layernorm([1, 7, 7, 96]), load_target("edge-10")).mode == "native"
    assert not node_support(*_layernorm([1, 197, 192]), load_target("edge-10-nolut")).runs


def test_gelu_pattern_runs_as_one_gelu_where_the_target_runs_gelu():
    from npuready.lint.policy_cases import _gelu

    g = _gelu()
    u55, nolut = load_target("ethos-u55-128"), load_target("edge-10-nolut")
    for name in ("div", "erf"):  # not in the mirror's op table / activation list: they run as the GELU
        s = node_support(g, g.node(name), u55)
        assert s.runs and s.mode == "lut" and s.depends_on == "erf", name
    assert all(node_support(g, g.node(n), u55).runs for n in ("add", "mul", "half"))  # Add/Mul run anyway
    assert not node_support(g, g.node("erf"), nolut).runs
    assert not node_support(g, g.node("div"), nolut).runs  # no Div in edge-10-nolut's op table, no GELU to join


def test_bad_limits_are_one_clear_error(tmp_path):
    body = (DATA_DIR / "edge-10.toml").read_text(encoding="utf-8").replace(
        'RMSNormalization = "host"\n', 'RMSNormalization = "host"\nlimits = { axis_max = "big" }\n')
    path = tmp_path / "edge-10.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputError, match="must be a list of positive integers"):
        parse_target_file(path)


@pytest.mark.parametrize("old, new, message", [
    ('LayerNormalization = "native"', 'LayerNormalization = "sometimes"',
     r"\[norms\] LayerNormalization = 'sometimes'"),
    ('LayerNormalization = "native"', 'LayerNorm = "native"', r"\[norms\] key 'LayerNorm' is unknown"),
    ('cubic = "host"', 'cubic = "host"\nscales = [2, 0]', r"\[resize\] scales must be a list of positive integers"),
    ('cubic = "host"', 'cubic = "host"\ncoordinate_transforms = ["diagonal"]', r"\[resize\] coordinate_transforms"),
    ('norms = "virtual design', 'normz = "virtual design', r"\[norms\] needs a line in \[sources\]"),
])
def test_bad_declarations_are_one_clear_error(old, new, message, tmp_path):
    body = (DATA_DIR / "edge-10.toml").read_text(encoding="utf-8")
    assert old in body
    path = tmp_path / "edge-10.toml"
    path.write_text(body.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError, match=message):
        parse_target_file(path)


def test_every_hand_written_target_declares_norms_and_resize_with_sources(hand_written_targets):
    for name in hand_written_targets:
        t = load_target(name)
        assert {"norms", "resize"} <= set(t.sources) and t.norms, name
    u55 = load_target("ethos-u55-128")
    assert "SUPPORTED_OPS.md" in u55.sources["norms"] and "constraint_resize" in u55.sources["resize"]
    assert u55.activation_mode("Gelu") == "lut" and "GELU" in u55.sources["activations"]


# ONNX activation -> the TFLite operator a converter emits for it (None: TFLite has no such builtin; a tuple:
# the builtins it is lowered to)
TFLITE_ACTIVATION = {"Relu": "RELU", "Clip": "RELU6", "LeakyRelu": "LEAKY_RELU", "PRelu": "PRELU",
                     "HardSwish": "HARD_SWISH", "Sigmoid": "LOGISTIC", "Tanh": "TANH", "Softmax": "SOFTMAX",
                     "Exp": "EXP", "Gelu": "GELU", "Elu": "ELU", "HardSigmoid": ("ADD", "MUL"), "Erf": None,
                     "Selu": None, "Softplus": None, "Mish": None}


@pytest.mark.parametrize("name", ["ethos-u55-128", "ethos-u65-256"])
def test_vela_mirror_activations_match_velas_supported_ops_report(name, tmp_path, monkeypatch):
    """Every activation the mirror runs is in the Ethos-U55/U65 TFLite table of `vela --supported-ops-report`
    (Vela 5.2.0, written here in tmp_path); every one it marks 'host' has no TFLite builtin in that table; every
    one it marks 'lowered' is lowered to builtins all in that table."""
    import subprocess
    import sys

    pytest.importorskip("ethosu.vela")
    subprocess.run([sys.executable, "-m", "ethosu.vela", "--supported-ops-report"], cwd=tmp_path, check=True,
                   capture_output=True)
    text = (tmp_path / "SUPPORTED_OPS.md").read_text(encoding="utf-8")
    assert "Vela version: `5.2.0`" in text
    table = text.split("## Ethos-U55 and Ethos-U65 TFLite Summary Table", 1)[1].split("\n## ", 1)[0]
    listed = {line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ") and "Generic" in line}
    t = load_target(name)
    assert set(t.activations) == set(TFLITE_ACTIVATION)
    for op, mode in t.activations.items():
        tfl = TFLITE_ACTIVATION[op]
        if isinstance(tfl, tuple):
            assert mode == "lowered" and set(tfl) <= listed, (op, mode, tfl)
            continue
        assert (mode != "host") is (tfl in listed), (op, mode, tfl)
    assert {"MEAN", "RSQRT", "MUL", "ADD", "SUB", "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"} <= listed
