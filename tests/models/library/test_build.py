import pytest
from corpus_extra import needs_corpus

from npuready.errors import InputError
from npuready.models.library import build
from npuready.models.library.recipes import RECIPES, get_recipe

pytestmark = needs_corpus


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_every_recipe_builds_in_eval_mode(name):
    recipe = RECIPES[name]
    module = build.build_module(recipe, 320 if recipe.library == "ultralytics" else None)  # YOLO: any stride multiple
    assert not module.training
    assert sum(p.numel() for p in module.parameters()) > 0


def test_repvgg_is_built_in_its_deploy_form():
    module = build.build_module(get_recipe("repvgg_a0"))
    names = [type(m).__name__ for m in module.modules()]
    assert "BatchNorm2d" not in names


def test_yolo_head_is_prepared_for_export_and_bn_is_fused():
    from ultralytics.nn.modules import Detect

    module = build.build_module(get_recipe("yolov8n"), 320)
    heads = [m for m in module.modules() if isinstance(m, Detect)]
    assert len(heads) == 1 and heads[0].export and heads[0].format == "onnx" and heads[0].dynamic is False
    assert not any(type(m).__name__ == "BatchNorm2d" for m in module.modules())


def test_yolo_size_must_be_a_multiple_of_the_stride():
    with pytest.raises(InputError, match="not a multiple of 32"):
        build.build_module(get_recipe("yolov8n"), 100)


def test_missing_corpus_extra_names_the_install_command(monkeypatch):
    monkeypatch.setattr(build.importlib.util, "find_spec", lambda name: None if name == "timm" else object())
    with pytest.raises(InputError) as exc:
        build.build_module(get_recipe("resnet18"))
    assert "needs timm" in str(exc.value) and "pip install 'npuready[corpus]'" in str(exc.value)
