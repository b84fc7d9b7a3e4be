"""Standard value recipes: the affine relation between two of them, and the doctor naming it on real photos."""
import numpy as np
import pytest

from npuready.preprocess.doctor import diagnose
from npuready.preprocess.doctor_recipes import Recipe, recipes, relation
from npuready.preprocess.pipeline import apply
from npuready.preprocess.presets import IMAGENET_MEAN, IMAGENET_STD, PRESETS, UNIT

# torchvision's recipe at a small size (fast); the value steps are what varies
BASE = PRESETS["classification_torchvision"].unfused().replace(resize=64, center_crop=(56, 56))
MEAN, STD = np.array(IMAGENET_MEAN), np.array(IMAGENET_STD)


def _spec(recipe: Recipe, base=BASE):
    _, mean, std = recipe.arrays(3)
    stats = recipe.stats is not None
    return base.replace(scale=None if recipe.scale == 1.0 else recipe.scale,
                        mean=tuple(mean) if stats else None, std=tuple(std) if stats else None)


def _expected(runtime: Recipe, calib: Recipe) -> set[str]:
    return ({"scale_255"} if runtime.divides != calib.divides else set()) | \
           ({"normalization"} if runtime.stats != calib.stats else set())


def test_mean_std_without_255_is_255_times_calibration_plus_254_mean_over_std(photos):
    imagenet = recipes()[2]
    assert (imagenet.scale, imagenet.mean, imagenet.std) == (UNIT, IMAGENET_MEAN, IMAGENET_STD)
    forgot = Recipe(1.0, IMAGENET_MEAN, IMAGENET_STD, imagenet.stats)
    a, b = relation(forgot, imagenet, 3)
    np.testing.assert_allclose(a, [255.0] * 3)
    np.testing.assert_allclose(b, 254 * MEAN / STD)
    runtime, calib = apply(_spec(forgot), photos["chelsea"]), apply(_spec(imagenet), photos["chelsea"])
    predicted = 255 * calib + (254 * MEAN / STD).reshape(1, 3, 1, 1)
    np.testing.assert_allclose(runtime, predicted, rtol=1e-5, atol=2e-3)  # float32 pipeline


def test_the_doctor_names_mean_std_applied_without_255(photos):
    tv = PRESETS["classification_torchvision"].unfused()
    d = diagnose(apply(tv.replace(scale=None), photos["rocket"]), apply(tv, photos["rocket"]), tv)
    assert d.kinds == ("scale_255",)
    message = d.findings[0].message
    assert message.startswith("mean/std applied without /255: runtime normalises 0..255 values with ImageNet mean "
                              "(0.485, 0.456, 0.406) std (0.229, 0.224, 0.225) where calibration divides by 255 first")
    assert "runtime = 255 × calibration + 254·mean/std per channel" in message
    offsets = ", ".join(f"{v:.3f}" for v in 254 * MEAN / STD)
    assert f"fitted: runtime = calibration × (255.000, 255.000, 255.000) + ({offsets})" in message


@pytest.mark.parametrize("runtime", recipes(), ids=lambda r: r.describe())
def test_every_pair_of_standard_recipes_is_named_on_real_photos(runtime, photos):
    for calib in recipes():
        if calib == runtime:
            continue
        for name in ("chelsea", "flower"):
            d = diagnose(apply(_spec(runtime), photos[name]), apply(_spec(calib), photos[name]))
            assert set(d.kinds) == _expected(runtime, calib), (name, calib.describe(), d.kinds)


def test_a_spec_with_its_own_mean_std_is_a_recipe_too(photos):
    own = BASE.replace(mean=(0.5, 0.4, 0.3), std=(0.2, 0.25, 0.3))
    d = diagnose(apply(own.replace(scale=None), photos["coffee"]), apply(own, photos["coffee"]), own)
    assert d.kinds == ("scale_255",)
    assert "with the spec's mean (0.5, 0.4, 0.3) std (0.2, 0.25, 0.3)" in d.findings[0].message


def test_calibration_without_255_is_named_on_the_calibration_side(photos):
    tv = PRESETS["classification_torchvision"].unfused()
    d = diagnose(apply(tv, photos["china"]), apply(tv.replace(scale=None), photos["china"]), tv)
    assert d.kinds == ("scale_255",)
    assert d.findings[0].message.startswith("mean/std applied without /255: calibration normalises 0..255 values")
