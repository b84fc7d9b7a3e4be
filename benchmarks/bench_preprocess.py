"""Benchmarks: one image through ``preprocess.apply`` and one doctor diagnosis (224 and YOLO sizes).

No speed goal is asserted; the numbers show what a calibration set or a debugging session costs here.
"""
import pytest

from npuready.data import photo
from npuready.preprocess.doctor import diagnose
from npuready.preprocess.pipeline import apply
from npuready.preprocess.presets import PRESETS


@pytest.fixture(scope="module")
def china():
    return photo("china")


@pytest.mark.parametrize("name", ["classification_torchvision", "yolo_640"])
def test_apply(benchmark, china, name):
    x = benchmark(apply, PRESETS[name], china)
    assert x.shape == PRESETS[name].shape()


def test_diagnose_matched_224(benchmark, china):
    tv = PRESETS["classification_torchvision"]
    x = apply(tv, china)
    assert benchmark(diagnose, x.copy(), x).matched


def test_diagnose_crop_224(benchmark, china):
    tv = PRESETS["classification_torchvision"].unfused()
    calib, runtime = apply(tv, china), apply(tv.replace(resize=(224, 224), center_crop=None), china)
    assert benchmark(diagnose, runtime, calib).kinds == ("crop",)


def test_diagnose_letterbox_640_vs_1280(benchmark, china):
    calib, runtime = apply(PRESETS["yolo_1280"], china), apply(PRESETS["yolo_640"], china)
    d = benchmark.pedantic(diagnose, args=(runtime, calib, PRESETS["yolo_1280"]), rounds=3)
    assert d.kinds == ("letterbox_size",)
