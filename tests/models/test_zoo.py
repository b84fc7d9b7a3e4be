import pytest

from npuready.errors import InputError
from npuready.models.zoo import ZOO, spec
from npuready.preprocess.presets import PRESETS

LIBRARY = {"mobilenetv3_small_050_fm64": ("timm", "mobilenetv3_small_050"),
           "mobilenetv2_050_fm64": ("timm", "mobilenetv2_050"),
           "squeezenet1_1_fm64": ("torchvision", "squeezenet1_1")}


@pytest.mark.parametrize("name", list(LIBRARY))
def test_library_entries_take_their_input_from_the_64x64_rgb_preset(name):
    s = ZOO[name]
    p = PRESETS[s.preset]
    assert s.preset == "fashion_mnist_64_rgb" and s.library == LIBRARY[name]
    assert s.input_shape == (1, 3, *p.resize) == (1, 3, 64, 64)
    assert (s.mean, s.std) == (p.mean, p.std)
    assert not s.recipe.augment and s.kind == "classifier"


def test_the_zoo_s_own_models_have_no_preset():
    assert [n for n, s in ZOO.items() if s.preset is None] == ["tinycnn", "resnet20", "mobilenetv2", "vit_tiny",
                                                               "detector"]


def test_unknown_name_lists_the_library_entries_too():
    with pytest.raises(InputError, match="squeezenet1_1_fm64"):
        spec("squeezenet")
