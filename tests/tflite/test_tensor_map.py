import numpy as np
import pytest
from tflite_models import conv_relu

from npuready.tflite import export_float, read_tensor_map
from npuready.tflite.tensor_map import TensorMap, TensorRef


def test_ref_layout_round_trip():
    ref = TensorRef("x", "x", 0, (0, 2, 3, 1))
    a = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    assert ref.to_tflite(a).shape == (2, 4, 5, 3)
    assert np.array_equal(ref.to_onnx(ref.to_tflite(a)), a)


def test_json_round_trip():
    m = TensorMap({"x": TensorRef("x", "x#1", 3, (0, 2, 3, 1))}, ("x",), ("y",), {"c": "y"}, ("note",))
    assert TensorMap.from_json(m.to_json()) == m


def test_map_is_embedded_in_the_file():
    tfl = export_float(conv_relu())
    m = read_tensor_map(tfl)
    assert m.inputs == ("input",) and m.tensors["input"].perm == (0, 2, 3, 1)
    assert m.outputs[0] in m.tensors and m.tensors[m.outputs[0]].perm == (0, 2, 3, 1)


def test_file_without_map_is_reported():
    from ai_edge_litert.tools import flatbuffer_utils

    model = flatbuffer_utils.convert_bytearray_to_object(bytearray(export_float(conv_relu())))
    model.metadata = []
    with pytest.raises(KeyError, match="npuready.onnx_map"):
        read_tensor_map(bytes(flatbuffer_utils.convert_object_to_bytearray(model)))
