"""Spec [params] and ids checked before anything runs (npuready.experiments.params)."""
from __future__ import annotations

import os

import pytest

from npuready.errors import InputError
from npuready.experiments.params import check_id, check_params, repo_file

RUNNER = "npuready.experiments.runners.model_report"


@pytest.mark.parametrize("exp_id", ["probes", "model-report-yolov8n", "a1"])
def test_ids(exp_id):
    assert check_id(exp_id) == exp_id


@pytest.mark.parametrize("exp_id", ["/abs", "../x", "a/b", "A", "-x", "", "a_b", "a\\b"])
def test_paths_and_other_strings_are_not_ids(exp_id):
    with pytest.raises(InputError, match="not an experiment id"):
        check_id(exp_id)


def test_repo_file_keeps_paths_inside_the_repository(tmp_path):
    repo = tmp_path / "repo"
    (repo / "m").mkdir(parents=True)
    (repo / "m" / "a.onnx").write_bytes(b"12345")
    assert repo_file("m/a.onnx", "model", "s", repo, 10) == (repo / "m" / "a.onnx").resolve()
    with pytest.raises(InputError, match="5 bytes, above the 4-byte budget"):
        repo_file("m/a.onnx", "model", "s", repo, 4)
    assert repo_file("m", "calibration", "s", repo, 10, folder_ok=True) == (repo / "m").resolve()
    (repo / "out").symlink_to(tmp_path)
    with pytest.raises(InputError, match="outside"):
        repo_file("out", "calibration", "s", repo, 10, folder_ok=True)
    os.mkfifo(repo / "f")
    with pytest.raises(InputError, match="is a FIFO"):
        repo_file("f", "model", "s", repo, 10)


def test_model_report_params_schema(tmp_path):
    (tmp_path / "m.onnx").write_bytes(b"x")
    check_params("e", {"model": "m.onnx", "images": 4, "stages": ["lint"]}, RUNNER, tmp_path, "spec")
    check_params("e", {"model": "library:resnet18", "calibration": "fashion-mnist:train"}, RUNNER, tmp_path, "spec")
    with pytest.raises(InputError, match=r"^spec: \[params\] \(top level\): 'model' is missing"):
        check_params("e", {}, RUNNER, tmp_path, "spec")
    with pytest.raises(InputError, match=r"\[params\] input_shapes.x\[1\]: expected an integer"):
        check_params("e", {"model": "m.onnx", "input_shapes": {"x": [1, "3"]}}, RUNNER, tmp_path, "spec")
    check_params("e", {"anything": 1}, None, tmp_path, "spec")  # no runner: nothing to check against
