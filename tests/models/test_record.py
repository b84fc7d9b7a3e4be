import json

from npuready.models.record import input_contract, update_manifest
from npuready.models.zoo import FASHION_MEAN, FASHION_STD, ZOO


def test_update_keeps_other_entries_and_sorts(tmp_path):
    update_manifest(tmp_path, "vit_tiny", {"a": 1})
    update_manifest(tmp_path, "resnet20", {"b": 2})
    update_manifest(tmp_path, "vit_tiny", {"a": 3})
    data = json.loads((tmp_path / "zoo.json").read_text())
    assert list(data["models"]) == ["resnet20", "vit_tiny"]
    assert data["models"]["vit_tiny"] == {"a": 3}


def test_input_contract_of_a_classifier():
    contract = input_contract(ZOO["resnet20"])
    assert contract["shape"] == [1, 1, 28, 28] and contract["name"] == "input"
    assert contract["mean"] == [FASHION_MEAN] and contract["std"] == [FASHION_STD]
    assert contract["colour"] == "grey" and contract["layout"] == "NCHW"
    assert input_contract(ZOO["detector"])["colour"] == "RGB"


def test_input_contract_of_a_library_model_names_its_preset():
    contract = input_contract(ZOO["squeezenet1_1_fm64"])
    assert contract["preset"] == "fashion_mnist_64_rgb" and contract["shape"] == [1, 3, 64, 64]
    assert contract["colour"] == "RGB" and contract["resize"] == [64, 64] and contract["interpolation"] == "bilinear"
    assert contract["mean"] == [FASHION_MEAN] * 3 and contract["std"] == [FASHION_STD] * 3
