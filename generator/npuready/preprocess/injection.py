"""The catalogue of injected mismatches the doctor is proven on (tests and the preprocess-doctor experiment).

Each injection renders the same photo twice through ``pipeline.apply``: once with the
calibration spec, once with a runtime spec (or buffer) that differs in exactly one of the
common ways a deployment's preprocessing drifts from calibration's (layout, channel order, value scale,
resize, letterbox). ``expected`` is the set of kinds a correct doctor names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from npuready.preprocess.pipeline import apply
from npuready.preprocess.presets import PRESETS
from npuready.preprocess.spec import PreprocessSpec

_TV = PRESETS["classification_torchvision"].unfused()          # normalised float NCHW 224
_CLS = PRESETS["classification"].with_size((224, 224))           # float 0..1 NCHW 224


@dataclass(frozen=True)
class Injection:
    name: str
    expected: frozenset[str]
    calib: PreprocessSpec
    runtime: Callable[[np.ndarray], np.ndarray]   # photo -> runtime tensor
    why: str


def _spec(spec: PreprocessSpec) -> Callable[[np.ndarray], np.ndarray]:
    return lambda img: apply(spec, img)


def _reshaped_nchw_in_hwc(img: np.ndarray) -> np.ndarray:
    x = apply(_TV, img)
    return x.reshape(x.shape[2], x.shape[3], x.shape[1])


def _letterboxed(size: int) -> PreprocessSpec:
    """The YOLO preset of that size, else yolo_640 re-sized (named ``letterbox_<size>``)."""
    return PRESETS.get(f"yolo_{size}") or PRESETS["yolo_640"].replace(name=f"letterbox_{size}",
                                                                    letterbox=(size, size))


def injections(letterbox: tuple[int, int] = (640, 1280)) -> tuple[Injection, ...]:
    """The injected mismatches; ``letterbox`` = (runtime size, calibration size) of the YOLO case."""
    yolo_run, yolo_cal = (_letterboxed(size) for size in letterbox)
    return (
        Injection("rgb_vs_bgr", frozenset({"channel_order"}), _TV, _spec(_TV.replace(color="BGR")),
                  "calibration RGB, inference BGR (e.g. OpenCV decode)"),
        Injection("missing_255", frozenset({"scale_255"}), _CLS, _spec(_CLS.replace(scale=None)),
                  "calibration divides by 255, inference passes 0..255"),
        Injection("missing_normalization", frozenset({"normalization"}), _TV,
                  _spec(_TV.replace(mean=None, std=None)),
                  "calibration normalises, inference does not"),
        Injection("fused_setting_inactive", frozenset({"scale_255", "normalization"}), _TV,
                  _spec(PRESETS["classification_torchvision"]),
                  "calibration normalised floats, inference raw uint8 relying on an inactive fused setting"),
        Injection("hwc_vs_nchw", frozenset({"layout"}), _TV.replace(layout="HWC"), _spec(_TV),
                  "calibration HWC, inference NCHW"),
        Injection("nchw_reshaped_as_hwc", frozenset({"layout"}), _TV, _reshaped_nchw_in_hwc,
                  "inference writes NCHW data into an HWC-shaped buffer (same element count)"),
        Injection("crop_vs_no_crop", frozenset({"crop"}), _TV,
                  _spec(_TV.replace(resize=(224, 224), center_crop=None)),
                  "calibration resizes + centre-crops, inference only resizes"),
        Injection("wrong_interpolation", frozenset({"interpolation"}), _TV,
                  _spec(_TV.replace(interpolation="bicubic")), "calibration resizes bilinear, inference bicubic"),
        Injection("wrong_pad_value", frozenset({"letterbox_pad"}), yolo_run, _spec(yolo_run.replace(pad_value=0)),
                  "calibration letterboxes with 114, inference pads with 0"),
        Injection("wrong_letterbox_size", frozenset({"letterbox_size"}), yolo_cal, _spec(yolo_run),
                  f"{yolo_run.name} preprocessing reused for a {yolo_cal.name} export"),
    )


def combinations(letterbox: tuple[int, int] = (640, 1280)) -> tuple[Injection, ...]:
    """Two mismatches at once: the doctor must name both."""
    lb = {c.name: c for c in injections(letterbox)}["wrong_letterbox_size"]
    crop_cls = _CLS.replace(resize=256, center_crop=(224, 224))
    return (
        Injection("bgr+missing_normalization", frozenset({"channel_order", "normalization"}), _TV,
                  _spec(_TV.replace(color="BGR", mean=None, std=None)), "BGR decode and no normalisation"),
        Injection("bgr+hwc", frozenset({"channel_order", "layout"}), _TV,
                  _spec(_TV.replace(color="BGR", layout="HWC")), "BGR decode, HWC buffer"),
        Injection("no_crop+missing_255", frozenset({"crop", "scale_255"}), crop_cls, _spec(_CLS.replace(scale=None)),
                  "no centre crop and no /255"),
        Injection("no_crop+bgr", frozenset({"crop", "channel_order"}), _TV,
                  _spec(_TV.replace(resize=(224, 224), center_crop=None, color="BGR")), "no centre crop, BGR decode"),
        Injection("letterbox_size+bgr", frozenset({"letterbox_size", "channel_order"}), lb.calib,
                  lambda img: lb.runtime(img)[:, ::-1].copy(), f"{lb.why}, BGR decode"),
        Injection("nhwc+missing_255", frozenset({"layout", "scale_255"}), _CLS,
                  _spec(_CLS.replace(scale=None, layout="NHWC")), "NHWC buffer, no /255"),
    )


def matched_specs() -> tuple[PreprocessSpec, ...]:
    """Specs whose runtime and calibration tensors are rendered identically (no-alarm pairs)."""
    return (_CLS, _TV, PRESETS["classification_torchvision"], _TV.replace(layout="HWC"), PRESETS["yolo_640"])


def jitter(x: np.ndarray, seed: int) -> np.ndarray:
    """``x`` with +-1 LSB of 8-bit noise (uint8: +-1; float: +-1/255 of its range): still a match."""
    rng = np.random.default_rng(seed)
    if x.dtype == np.uint8:
        return np.clip(x.astype(np.int16) + rng.integers(-1, 2, x.shape), 0, 255).astype(np.uint8)
    span = float(x.max() - x.min()) or 1.0
    return (x + rng.uniform(-1, 1, x.shape) * span / 255.0).astype(x.dtype)
