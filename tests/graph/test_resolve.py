"""Shapes are resolved before any rule runs: onnx inference, folded shape computations, symbolic inference."""
import numpy as np
import pytest

from npuready.graph import load
from npuready.graph.resolve import onnx_inferred
from npuready.graph.shape_summary import shape_summary

import shape_patterns as sp


def _onnx_only_shape(model, name):
    """The shape onnx's own inference (data propagation on) gives ``name``: what the loader used before."""
    inferred = onnx_inferred(model)
    for vi in list(inferred.graph.value_info) + list(inferred.graph.output):
        if vi.name == name:
            return tuple(d.dim_value if d.HasField("dim_value") else None for d in vi.type.tensor_type.shape.dim)
    return None


@pytest.mark.parametrize("build, value, onnx_shape, resolved", [
    (sp.chunk_conv, "first", (None, None, None, None), (1, 4, 5, 5)),
    (sp.cls_token, "cls", (None, None, 8), (1, 1, 8)),
    (sp.cls_token, "seq", (1, None, 8), (1, 5, 8)),
])
def test_onnx_leaves_the_pattern_unresolved_and_the_loader_resolves_it(build, value, onnx_shape, resolved):
    model = build()
    assert _onnx_only_shape(model, value) == onnx_shape
    assert load(model).info(value).shape == resolved


def test_channel_shuffle_shapes_and_reshape_targets():
    g = load(sp.channel_shuffle())
    assert g.info("grouped").shape == (1, 2, 4, 5, 5)
    assert g.info("shuffled").shape == (1, 8, 5, 5)
    assert g.constant("view_shape").tolist() == [1, 2, 4, 5, 5]
    assert g.constant("back_shape").tolist() == [1, -1, 5, 5]


def test_every_original_node_is_kept():
    model = sp.cls_token()
    g = load(model)
    assert [n.name for n in g.nodes] == [n.name for n in model.graph.node]
    assert [n.op_type for n in g.nodes] == [n.op_type for n in model.graph.node]


def test_folded_nodes_and_shape_computations():
    g = load(sp.chunk_conv())
    assert g.shape_folded == {"shape", "gather_c", "add", "div", "mul"}
    assert g.folded == g.shape_folded | {"axis1", "one", "two", "zero"}
    assert g.constant("end").tolist() == [4]
    assert g.constant("c").tolist() == [8]
    assert shape_summary(g) == {"shape_ops_folded": 5, "folded_nodes": 9, "unresolved_values": 0, "pinned": None}


def test_cls_token_expand_is_a_compile_time_constant():
    g = load(sp.cls_token())
    assert "expand_cls" in g.shape_folded
    assert g.constant("expand_shape").tolist() == [1, 1, 1]  # -1 (keep) turned into 1 by Equal/Where
    assert g.constant("cls").shape == (1, 1, 8)
    assert "concat_cls" not in g.folded  # the tokens are computed at run time


def test_values_computed_at_run_time_have_no_constant():
    g = load(sp.chunk_conv())
    assert g.constant("first") is None
    assert "slice" not in g.folded and "conv" not in g.folded


def test_dynamic_batch_stays_named_after_the_input_dim():
    g = load(sp.chunk_conv("batch"))
    assert g.info("out").shape == ("batch", 6, 5, 5)
    assert g.info("first").shape == ("batch", 4, 5, 5)
    assert "shape" not in g.folded  # Shape of a tensor with a symbolic dim is known only at run time
    assert g.constant("end") is None


def test_a_plain_cnn_needs_no_symbolic_pass(monkeypatch):
    import npuready.graph.resolve as resolve

    def fail(model):
        raise AssertionError("symbolic inference ran")

    monkeypatch.setattr(resolve, "symbolic_inferred", fail)
    monkeypatch.setattr(resolve, "folded_values", fail)
    g = load(sp.flatten_gemm())
    assert g.info("out").shape == (1, 3)
    assert g.constant("flat_shape").tolist() == [1, -1]


def test_folded_values_feed_shape_inference_when_symbolic_inference_is_absent(monkeypatch):
    import npuready.graph.resolve as resolve

    monkeypatch.setattr(resolve, "symbolic_inferred", lambda model: None)
    g = load(sp.chunk_conv())
    assert g.info("first").shape == (1, 4, 5, 5)


def test_symbolic_inference_alone_resolves_the_pattern(monkeypatch):
    import npuready.graph.resolve as resolve

    monkeypatch.setattr(resolve, "folded_values", lambda model: {})
    g = load(sp.cls_token())
    assert g.info("seq").shape == (1, 5, 8)


def test_symbolic_inference_writes_no_file_in_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    load(sp.cls_token("batch"))
    assert list(tmp_path.iterdir()) == []


def test_loading_does_not_import_torch(tmp_path):
    """onnxruntime.tools' package __init__ imports torch when installed; the loader reads around it."""
    import os
    import subprocess
    import sys

    import onnx

    for name, model in (("dyn", sp.cls_token("batch")), ("static", sp.chunk_conv())):
        onnx.save(model, tmp_path / f"{name}.onnx")
    code = ("import sys; from npuready.graph import load; g = load(sys.argv[1]); h = load(sys.argv[2]); "
            "print(g.info('seq').shape, h.info('first').shape, 'torch' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "dyn.onnx"), str(tmp_path / "static.onnx")],
                         capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "('batch', 5, 8) (1, 4, 5, 5) False"


def test_constant_values_are_numpy_arrays():
    g = load(sp.channel_shuffle())
    assert isinstance(g.constant("view_shape"), np.ndarray) and g.constant("view_shape").dtype == np.int64
