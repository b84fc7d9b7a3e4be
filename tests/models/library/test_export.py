import onnx
import pytest
from corpus_extra import needs_corpus

from npuready.models.library import export
from npuready.models.library.recipes import RECIPES

pytestmark = needs_corpus

# small ones at a small size keep the default run bounded; every recipe at its own size is `slow`
SMALL = {"resnet18": 64, "mobilenetv3_small": 64, "efficientnet_lite0": 64, "squeezenet1_1": 64,
         "shufflenet_v2": 64, "deit_tiny": 64, "yolov8n": 320}


def _check(data: bytes, batch: int = 1):
    model = onnx.load_from_string(data)
    onnx.checker.check_model(model)
    assert len(model.graph.node) > 0
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_value == batch and dims[1].dim_value == 3
    return model


@pytest.fixture(scope="module")
def small_exports():
    return {}


def _small(cache, name):
    if name not in cache:
        cache[name] = export.onnx_bytes(name, image_size=SMALL[name])
    return cache[name]


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_exports_pass_the_onnx_checker(name, small_exports):
    model = _check(_small(small_exports, name))
    assert model.opset_import[0].version == 17
    assert [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim][2:] == [SMALL[name]] * 2


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(RECIPES) - set(SMALL)))
def test_every_other_recipe_exports_at_its_own_size(name):
    _check(export.onnx_bytes(name))


@pytest.mark.parametrize("name", ["resnet18", "yolov8n"])
def test_two_exports_are_byte_identical(name, small_exports):
    assert export.onnx_bytes(name, image_size=SMALL[name]) == _small(small_exports, name)


def test_batch_and_dynamic_batch():
    _check(export.onnx_bytes("squeezenet1_1", batch=2, image_size=64), batch=2)
    dyn = onnx.load_from_string(export.onnx_bytes("squeezenet1_1", dynamic_batch=True, image_size=64))
    assert dyn.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "batch"


def test_yolo_keeps_ultralytics_io_names(small_exports):
    model = onnx.load_from_string(_small(small_exports, "yolov8n"))
    assert [i.name for i in model.graph.input] == ["images"] and [o.name for o in model.graph.output] == ["output0"]


def test_cached_export_is_written_once_under_the_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("NPUREADY_CACHE", str(tmp_path))
    path = export.cached_onnx("squeezenet1_1", image_size=64)
    assert path.parent == tmp_path / "library" and path.name.startswith("squeezenet1_1-b1-64px-opset17-")
    stamp = path.stat().st_mtime_ns
    assert export.cached_onnx("squeezenet1_1", image_size=64) == path and path.stat().st_mtime_ns == stamp
    assert [p.name for p in (tmp_path / "library").iterdir()] == [path.name]  # no temporary left behind
