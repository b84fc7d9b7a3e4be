"""Exporter metadata (metadata_props) read, shown, and turned into a preset suggestion."""
import onnx
from onnx import TensorProto, helper

from npuready.preprocess.metadata import read_metadata


def _model(props: dict[str, str], dims=(1, 3, 48, "w")):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(dims))
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    m = helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]))
    onnx.helper.set_model_props(m, props)
    return m


def test_nudenet_320n_shows_ultralytics_imgsz_and_suggests_yolov8_with_the_pin():
    from npuready.thirdparty.catalog import get

    meta = read_metadata(get("nudenet-320n").path())
    assert meta.exporter == "ultralytics"
    assert dict(meta.facts)["imgsz"] == [320, 320] and dict(meta.facts)["stride"] == 32
    assert len(dict(meta.facts)["names"]) == 18
    lines = meta.lines()
    assert "model metadata: imgsz [320, 320] (ultralytics)" in lines
    assert "model metadata: names 18 entries (ultralytics)" in lines
    assert lines[-1].startswith("model metadata suggests --preset yolov8 --input-shape images=1,3,320,320: ")


def test_paddle_character_dictionary_suggests_paddleocr_rec():
    meta = read_metadata(_model({"character": "a\nb\nc"}))
    assert meta.exporter == "PaddlePaddle" and meta.lines()[0] == "model metadata: character 3 entries (PaddlePaddle)"
    assert meta.suggestion.flags == "--preset paddleocr-rec --input-shape x=1,3,48,320"


def test_paddle_label_list_on_a_224_classifier_suggests_nothing():
    meta = read_metadata(_model({"character": "0\n90\n180\n270"}, dims=(1, 3, 224, 224)))
    assert meta.suggestion is None and meta.lines() == ["model metadata: character 4 entries (PaddlePaddle)"]


def test_mean_std_and_pixel_format_are_shown_but_name_no_preset():
    meta = read_metadata(_model({"mean": "[0.5, 0.5, 0.5]", "std": "[0.25, 0.25, 0.25]",
                                 "Image.BitmapPixelFormat": "Bgr8", "author": "someone"}))
    assert dict(meta.facts) == {"mean": [0.5, 0.5, 0.5], "std": [0.25, 0.25, 0.25], "Image.BitmapPixelFormat": "Bgr8"}
    assert meta.exporter == "WinMLTools" and meta.suggestion is None
    assert meta.lines() == ["model metadata: mean [0.5, 0.5, 0.5] (WinMLTools)",
                            "model metadata: std [0.25, 0.25, 0.25] (WinMLTools)",
                            "model metadata: Image.BitmapPixelFormat Bgr8 (WinMLTools)",
                            "model metadata: 1 other key(s) (author) (WinMLTools)"]


def test_no_metadata_says_nothing():
    meta = read_metadata(_model({}))
    assert meta.lines() == [] and meta.exporter is None and meta.suggestion is None
