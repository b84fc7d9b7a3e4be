"""The safe loader: every unusable input is one InputError line naming the file; shape-inference failure is not."""
from __future__ import annotations

import onnx
import pytest
from bad_models import BAD

from npuready.errors import InputError
from npuready.graph import load
from npuready.lint import examples as ex
from npuready.lint import lint

EXPECTED = {
    "empty": "empty file",
    "truncated": "not an ONNX model",
    "garbage": "not an ONNX model",
    "png": "not an ONNX model",
    "json": "not an ONNX model",
    "no_graph": "no graph",
    "absolute_external": "absolute external data path",
    "escaping_external": "leaves the model's folder",
    "symlink_external": "leaves the model's folder",
    "missing_external": "is missing beside the model",
    "short_external": "shorter than declared",
    "absurd_shape": "1e+15 elements",
}


def test_every_bad_case_has_an_expectation():
    assert set(EXPECTED) == set(BAD)


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_is_one_line_naming_the_file(case, tmp_path):
    path = BAD[case](tmp_path)
    with pytest.raises(InputError) as info:
        load(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path) + ": ")
    assert EXPECTED[case] in message


def test_external_data_inside_the_folder_loads(tmp_path):
    from bad_models import _external

    path = _external(tmp_path, "w.bin", write=b"full")
    graph = load(path)
    assert graph.constant("w").shape == (64, 3, 3, 3)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load(tmp_path / "nope.onnx")
    with pytest.raises(InputError, match="is a folder"):
        load(tmp_path)


def test_absurd_initializer_dims_in_memory():
    m = ex.conv_relu()
    m.graph.initializer[0].dims[:] = [100000, 100000, 100000]
    with pytest.raises(InputError, match="refusing to load"):
        load(m)


def test_model_whose_shape_inference_fails_is_still_linted(monkeypatch):
    def broken(*args, **kwargs):
        raise onnx.shape_inference.InferenceError("[ShapeInferenceError] synthetic failure")

    monkeypatch.setattr(onnx.shape_inference, "infer_shapes", broken)
    report = lint(ex.conv_relu(channels=10))
    assert report.inference_error is not None and "synthetic failure" in report.inference_error
    assert report.rule_ids() == {"R004", "R009"}  # still linted from the declared and initializer shapes


def test_absurd_shape_from_shape_inference_is_ignored_not_allocated():
    import numpy as np
    from onnx import helper

    m = ex.model([helper.make_node("ConstantOfShape", ["s"], ["y"], name="cos")], [ex.value("x", [1])],
                 [ex.value("y", [None, None, None])], [ex.const("s", np.array([100000, 100000, 100000], np.int64))])
    graph = load(m)
    assert graph.inference_error.startswith("shape inference produced an absurd shape for 'y' [100000,100000,100000]")
    assert graph.info("y").shape == (None, None, None)
