"""RKNN-Toolkit2: the layer table of librknnc's verbose log, and a live compile (skipped without `make rknn-env`)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from npuready.errors import InputError
from npuready.vendor import rknn_toolkit
from npuready.vendor.rknn_log import parse

LOG = (Path(__file__).parent / "data" / "rknn_resnet20_layers.log").read_text()


def test_the_layer_table_gives_placement_and_cycles_per_layer():
    layers = parse(LOG)
    assert len(layers) == 26 and [x.id for x in layers] == list(range(26))
    first = layers[1]
    assert (first.op_type, first.target, first.ddr_cycles, first.npu_cycles, first.total_cycles, first.rw_kb) == \
        ("ConvRelu", "NPU", 672, 7056, 7056, 3)
    assert first.full_name == "Conv:/stem/stem.0/Conv"
    assert [x.op_type for x in layers if x.target == "CPU"] == ["Reshape", "OutputOperator"]


def test_no_table_reads_as_no_layers():
    assert parse("nothing compiled") == ()


def test_an_unknown_platform_is_refused_before_any_work(tmp_path):
    with pytest.raises(InputError, match="not an RKNN-Toolkit2 platform"):
        rknn_toolkit.run(tmp_path / "m.onnx", np.zeros((1, 1, 8, 8)), np.zeros((1, 1, 8, 8)), "rk9999")


@pytest.mark.skipif(not rknn_toolkit.available(), reason="run `make rknn-env` for RKNN-Toolkit2")
def test_the_trained_resnet20_compiles_for_rk3588_and_its_simulator_agrees_with_float():
    from npuready.paths import zoo_dir
    from npuready.quant.inputs import load_inputs

    calib = load_inputs("fashion-mnist:train", 16, (1, 1, 28, 28)).x
    test = load_inputs("fashion-mnist:test", 12, (1, 1, 28, 28))
    r = rknn_toolkit.run(zoo_dir() / "resnet20.onnx", calib, test.x, "rk3588")
    s = r.summary()
    assert s["version"] == "rknn-toolkit2 2.5.0" and s["layers"] == len(r.layers) > 20
    assert s["npu_layers"] >= s["layers"] - 3  # every conv on the NPU
    assert r.outputs[0].shape == (12, 10) and len(r.rknn_bytes) > 100_000
    assert float(np.mean(r.outputs[0].argmax(1) == test.labels)) >= 0.8
