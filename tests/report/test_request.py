import pytest

from npuready.errors import InputError
from npuready.report.request import ReportRequest, request_from_params


def test_spec_params_carry_pins_and_batch():
    request = request_from_params({"model": "m.onnx", "input_shapes": {"image": [1, 3, 64, 64]}, "batch": 1})
    assert request.input_shapes == (("image", (1, 3, 64, 64)),) and request.batch == 1


def test_unknown_stage_and_library_prefix():
    with pytest.raises(InputError, match="unknown"):
        ReportRequest(model="m.onnx", stages=("lint", "simulate"))
    assert ReportRequest(model="library:yolov8n").recipe == "yolov8n"
    assert ReportRequest(model="m.onnx").recipe is None


def test_quantize_runs_only_with_calibration():
    assert not ReportRequest(model="m.onnx").runs_quantize
    assert ReportRequest(model="m.onnx", calibration="fashion-mnist:test").runs_quantize


def test_request_from_spec_params():
    req = request_from_params({"model": "zoo/tinycnn.onnx", "targets": ["edge-10"],
                               "input_shapes": {"input": [1, 1, 28, 28]}, "stages": ["lint"]})
    assert req == ReportRequest(model="zoo/tinycnn.onnx", targets=("edge-10",),
                                input_shapes=(("input", (1, 1, 28, 28)),), stages=("lint",))
    with pytest.raises(InputError, match="model must name"):
        request_from_params({})
