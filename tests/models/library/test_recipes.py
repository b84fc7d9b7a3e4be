import pytest

from npuready.errors import InputError
from npuready.models.library.recipes import RECIPES, get_recipe

ISSUE_13 = {"resnet18": "resnet18", "resnet50": "resnet50", "mobilenetv2": "mobilenetv2_100",
            "mobilenetv3_large": "mobilenetv3_large_100", "efficientnet_b0": "efficientnet_b0",
            "efficientnet_lite0": "efficientnet_lite0", "regnety_200mf": "regnety_002", "repvgg_a0": "repvgg_a0",
            "convnext_atto": "convnext_atto", "deit_tiny": "deit_tiny_patch16_224",
            "mobilevit_xxs": "mobilevit_xxs", "swin_tiny": "swin_tiny_patch4_window7_224",
            "densenet121": "densenet121", "yolov8n": "yolov8n.yaml", "yolo11n": "yolo11n.yaml"}


def test_registry_holds_the_issue_13_architectures_by_their_library_ids():
    for name, constructor in ISSUE_13.items():
        assert RECIPES[name].constructor == constructor
    assert {r.task for r in RECIPES.values() if r.library == "ultralytics"} >= {"detect", "segment", "pose"}
    assert {r.library for r in RECIPES.values()} == {"timm", "torchvision", "ultralytics"}


def test_registry_keys_are_the_recipe_names_and_shapes_are_batch_1_rgb():
    for name, recipe in RECIPES.items():
        assert recipe.name == name
        assert recipe.input_shape[:2] == (1, 3) and recipe.input_shape[2] == recipe.input_shape[3]


def test_repvgg_is_reparameterised_and_only_it():
    assert [r.name for r in RECIPES.values() if r.reparameterize] == ["repvgg_a0"]


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(InputError) as exc:
        get_recipe("resnet-18")
    assert "unknown library model 'resnet-18'" in str(exc.value) and "resnet18, resnet50" in str(exc.value)
