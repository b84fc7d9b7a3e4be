import numpy as np

from npuready.runtime import letterbox_inverse, letterbox_params


def test_params_wide_image_pads_top_and_bottom():
    lb = letterbox_params((480, 640), (640, 640))
    assert (lb.scale, lb.pad_x, lb.pad_y) == (1.0, 0.0, 80.0)


def test_inverse_undoes_forward_mapping():
    lb = letterbox_params((300, 500), (320, 320))
    orig = np.array([[10.0, 20.0, 200.0, 150.0], [0.0, 0.0, 500.0, 300.0]], np.float32)
    net = orig.copy()
    net[:, 0::2] = orig[:, 0::2] * lb.scale + lb.pad_x
    net[:, 1::2] = orig[:, 1::2] * lb.scale + lb.pad_y
    np.testing.assert_allclose(letterbox_inverse(net, lb), orig, atol=1e-4)


def test_inverse_clips_to_image():
    lb = letterbox_params((100, 200), (200, 200))
    out = letterbox_inverse(np.array([[-5.0, 0.0, 250.0, 200.0]], np.float32), lb)
    assert out.tolist() == [[0.0, 0.0, 200.0, 100.0]]


def test_inverse_maps_the_pipelines_pasted_content_back_to_the_whole_photo():
    from npuready.data import photo
    from npuready.preprocess import PRESETS, apply

    china = photo("china")  # 427 x 640
    x = apply(PRESETS["yolo_640"], china)[0]
    content_rows = np.flatnonzero(~np.all(x == 114, axis=(0, 2)))
    top, bottom = int(content_rows[0]), int(content_rows[-1]) + 1  # 106, 533
    lb = letterbox_params(china.shape[:2], (640, 640))
    assert (lb.pad_y, lb.new_h) == (top, bottom - top)
    back = letterbox_inverse(np.array([[0.0, top, 640.0, bottom]], np.float32), lb, clip=False)
    assert back.tolist() == [[0.0, 0.0, 640.0, 427.0]]


def test_odd_padding_goes_bottom_right_like_the_pipeline():
    lb = letterbox_params((427, 640), (640, 640))
    assert (lb.pad_x, lb.pad_y, lb.new_h, lb.new_w) == (0.0, 106.0, 427, 640)
