"""The C++ twin agrees with the NumPy engine on every intermediate tensor (both declared roundings)."""
import json

import numpy as np
import pytest

from npuready.engine import cpp_engine, numpy_engine
from npuready.engine.export import export_integer_graph
from npuready.paths import zoo_dir


def _agree(graph, x):
    a = numpy_engine.run(graph, x)
    b = cpp_engine.run(graph, x)
    assert sorted(a) == sorted(b)
    return {name: int((a[name] != b[name]).sum()) for name in a}, a


@pytest.mark.parametrize("rounding", ["tflite-ref", "double", "single"])
@pytest.mark.parametrize("name", ["cnn", "elementwise", "attention", "attention_lite"])
def test_cpp_matches_numpy_on_every_tensor(qdq_models, name, rounding):
    graph = export_integer_graph(qdq_models[name], rounding=rounding)
    x = np.random.default_rng(3).standard_normal((6, 1, 28, 28)).astype(np.float32) * 2
    mismatches, values = _agree(graph, x)
    assert set(mismatches.values()) == {0}
    produced = [op for op in graph.ops if op.kind != "Constant"]
    assert len(values) == len(produced)  # every op's output was compared


def _zoo_models():
    index = zoo_dir() / "zoo.json"
    if not index.exists():
        return []
    return sorted(p.name for p in zoo_dir().glob("*.onnx"))


@pytest.mark.parametrize("model", _zoo_models() or ["<zoo missing>"])
def test_cpp_matches_numpy_on_zoo_models(model, tmp_path):
    if model == "<zoo missing>":
        pytest.skip("zoo/ not trained yet")
    from npuready.graph import load
    from npuready.quant.ptq import quantize_model

    g = load(zoo_dir() / model)
    shape = tuple(d if isinstance(d, int) else 1 for d in g.inputs[0].shape)
    images = np.random.default_rng(0).standard_normal((4, *shape)).astype(np.float32)
    q = quantize_model(g.model, list(images), method="minmax")
    graph = export_integer_graph(q)
    mismatches, values = _agree(graph, images[:, 0])
    assert set(mismatches.values()) == {0}, json.dumps(mismatches)
    assert len(values) == sum(op.kind != "Constant" for op in graph.ops)
