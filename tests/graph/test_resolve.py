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


def test_onnx_inference_without_weight_data_equals_inference_with_it(monkeypatch):
    """onnx_inferred infers on a copy whose large float initializers carry dims only: the result is the one
    infer_shapes gives on the whole model, byte for byte, weights included."""
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h
    from onnx import numpy_helper as nh

    from npuready.graph import resolve

    rng = np.random.default_rng(0)
    inits = [nh.from_array(rng.standard_normal((32, 3, 3, 3)).astype(np.float32), "w"),       # stripped
             nh.from_array(rng.standard_normal((32,)).astype(np.float32), "b"),               # small: kept
             nh.from_array(np.array([1, 32 * 8 * 8], np.int64), "shape"),                    # read by Reshape
             nh.from_array(rng.standard_normal((10, 32 * 8 * 8)).astype(np.float16), "fc"),  # stripped
             nh.from_array(np.array([1, 1, 2, 2], np.float32), "scales")]                    # read by Resize
    nodes = [h.make_node("Resize", ["x", "", "scales"], ["up"], mode="nearest"),
             h.make_node("Conv", ["up", "w", "b"], ["c"], pads=[1, 1, 1, 1], strides=[2, 2]),
             h.make_node("Reshape", ["c", "shape"], ["flat"]), h.make_node("Cast", ["flat"], ["half"], to=T.FLOAT16),
             h.make_node("MatMul", ["half", "fc_t"], ["y"]), h.make_node("Transpose", ["fc"], ["fc_t"])]
    nodes = nodes[:4] + [nodes[5], nodes[4]]
    graph = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
                         [h.make_tensor_value_info("y", T.FLOAT16, None)], inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)])
    assert sum(resolve._elements(t) >= resolve.WEIGHT_ELEMENTS for t in model.graph.initializer) == 1
    want = onnx.shape_inference.infer_shapes(model, check_type=False, strict_mode=False, data_prop=True)
    seen = []
    infer = onnx.shape_inference.infer_shapes
    monkeypatch.setattr(onnx.shape_inference, "infer_shapes", lambda m, **kw: seen.append(m) or infer(m, **kw))
    monkeypatch.setattr(resolve, "WEIGHT_ELEMENTS", 64)  # strip both weights, keep the bias, shape and scales
    got = onnx_inferred(model)
    sizes = {t.name: len(t.raw_data) + len(t.float_data) + len(t.int64_data) for t in seen[0].graph.initializer}
    assert sizes["w"] == sizes["fc"] == 0 and min(sizes["b"], sizes["shape"], sizes["scales"]) > 0
    assert got.SerializeToString(deterministic=True) == want.SerializeToString(deterministic=True)
    shapes = {vi.name: [d.dim_value for d in vi.type.tensor_type.shape.dim]
              for vi in list(got.graph.value_info) + list(got.graph.output)}
    assert shapes["up"] == [1, 3, 16, 16] and shapes["flat"] == [1, 2048] and shapes["y"] == [1, 10]
    assert [t.name for t in got.graph.initializer] == [t.name for t in model.graph.initializer]
