import pytest
import torch

from npuready.errors import InputError
from npuready.models import ZOO, load
from npuready.models.onnx_export import save_checkpoint

NAMES = ["resnet20", "mobilenetv2", "vit_tiny", "tinycnn", "detector", "mobilenetv3_small_050_fm64",
         "mobilenetv2_050_fm64", "squeezenet1_1_fm64"]


def test_zoo_names_are_the_contract():
    assert list(ZOO) == ["tinycnn", "resnet20", "mobilenetv2", "vit_tiny", "detector", "mobilenetv3_small_050_fm64",
                         "mobilenetv2_050_fm64", "squeezenet1_1_fm64"]


@pytest.mark.parametrize("name", NAMES)
def test_committed_checkpoint_loads_in_eval_mode(name, manifest):
    model = load(name)
    assert not model.training and all(not m.training for m in model.modules())
    assert sum(p.numel() for p in model.parameters()) == manifest["models"][name]["parameters"]
    shape = manifest["models"][name]["input"]["shape"]
    with torch.no_grad():
        out = model(torch.zeros(shape))
    outputs = out if isinstance(out, tuple) else (out,)
    assert len(outputs) == len(manifest["models"][name]["outputs"])


def test_unknown_name():
    with pytest.raises(InputError, match="zoo model 'resnet50': unknown"):
        load("resnet50")


def test_missing_checkpoint_says_how_to_get_it(tmp_path):
    with pytest.raises(InputError, match="npuready train --arch tinycnn"):
        load("tinycnn", tmp_path)


def test_checkpoint_of_another_architecture_is_refused(tmp_path):
    save_checkpoint(ZOO["resnet20"].build(), tmp_path / "tinycnn.pt")
    with pytest.raises(InputError, match="does not fit tinycnn"):
        load("tinycnn", tmp_path)
