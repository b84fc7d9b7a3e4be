import json

import pytest

from npuready.errors import InputError
from npuready.preprocess.zoo_spec import spec_from_entry, zoo_spec

ENTRY = {"input_shape": [1, 1, 28, 28], "mean": [0.25], "std": [0.5]}
TRAINER = {"kind": "classifier", "input": {"name": "input", "shape": [1, 1, 28, 28], "dtype": "float32",
                                           "layout": "NCHW", "colour": "grey", "scale": 1 / 255, "mean": [0.25],
                                           "std": [0.5]}}


def test_trainer_manifest_entry_names_the_input(tmp_path):
    path = tmp_path / "zoo.json"
    path.write_text(json.dumps({"models": {"tinycnn": TRAINER}}))
    spec = zoo_spec("tinycnn", path)
    assert (spec.color, spec.resize, spec.scale, spec.mean, spec.std, spec.image_input) == \
        ("GRAY", (28, 28), 1 / 255, (0.25,), (0.5,), "input")


@pytest.mark.parametrize("layout", [
    {"models": {"tinycnn": ENTRY}},
    {"models": [dict(ENTRY, name="tinycnn")]},
    {"tinycnn": ENTRY},
])
def test_zoo_json_layouts_give_the_fashion_mnist_spec(tmp_path, layout):
    path = tmp_path / "zoo.json"
    path.write_text(json.dumps(layout))
    spec = zoo_spec("tinycnn", path)
    assert (spec.name, spec.color, spec.dtype, spec.layout, spec.resize) == ("zoo:tinycnn", "GRAY", "float32", "NCHW",
                                                                             (28, 28))
    assert (spec.scale, spec.mean, spec.std) == (1 / 255, (0.25,), (0.5,))
    assert spec.shape() == (1, 1, 28, 28)


def test_identity_normalisation_is_dropped():
    spec = spec_from_entry("detector", {"input_shape": [1, 3, 96, 96], "mean": [0, 0, 0], "std": [1, 1, 1]})
    assert (spec.color, spec.mean, spec.std, spec.value_range) == ("RGB", None, None, "0..1")


def test_missing_file_model_and_fields(tmp_path):
    with pytest.raises(InputError, match="zoo.json: not found; the zoo contract is written by 'npuready train'"):
        zoo_spec("tinycnn", tmp_path / "zoo.json")
    (tmp_path / "zoo.json").write_text(json.dumps({"models": {"tinycnn": ENTRY}}))
    with pytest.raises(InputError, match="no model 'resnet20'; models: tinycnn"):
        zoo_spec("resnet20", tmp_path / "zoo.json")
    with pytest.raises(InputError, match="zoo entry 'x': input NCHW \\[2, 1, 28, 28\\]"):
        spec_from_entry("x", {"input_shape": [2, 1, 28, 28], "mean": [0], "std": [1]})


def test_an_entry_naming_a_preset_gets_that_preset_itself(tmp_path):
    from npuready.preprocess.presets import PRESETS

    entry = {"kind": "classifier", "input": dict(TRAINER["input"], shape=[1, 3, 64, 64], colour="RGB",
                                                  preset="fashion_mnist_64_rgb")}
    path = tmp_path / "zoo.json"
    path.write_text(json.dumps({"models": {"mobilenetv3_small_050_fm64": entry}}))
    assert zoo_spec("mobilenetv3_small_050_fm64", path) is PRESETS["fashion_mnist_64_rgb"]
