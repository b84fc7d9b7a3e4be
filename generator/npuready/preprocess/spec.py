"""The declarative input-format spec: one frozen dataclass that both calibration and inference read.

A ``PreprocessSpec`` describes the ordered pipeline::

    decode -> colour (RGB/BGR/GRAY) -> resize -> centre crop -> letterbox -> dtype -> scale -> mean/std -> layout

Exporters' own Python code differs in details the spec names rather than hides: which library
resizes (``resizer``: Pillow, OpenCV's ``cv2.resize``, or torch's ``interpolate(mode="area")``),
how sizes round (``size_rounding``), where a letterboxed image sits and how it is fitted
(``letterbox_style``), whether padding is written after normalisation (``pad_output``), and
PaddleOCR's detector rule (``limit_side``/``limit_type``/``size_multiple``: scale so the shorter
or longer side meets a limit, then round each side to a multiple).

``dtype`` is the element type at the compiled model's input boundary. When
``fuse_normalization`` is true the scale/mean/std are folded into the model (see
``preprocess.fusion``), so the boundary tensor stops *before* normalisation (raw uint8
pixels); ``unfused()`` gives the spec of the original float model that does them in
software. ``mean``/``std`` are listed in the output channel order (``color``).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping

from npuready.errors import InputError

COLORS = ("RGB", "BGR", "GRAY")
DTYPES = ("uint8", "float32")
LAYOUTS = ("HWC", "NHWC", "NCHW")
INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "lanczos", "box", "hamming")
#: pillow: PIL.Image.resize (antialiased); opencv: cv2.resize (INTER_* flags, no antialias, as the OpenCV-based
#: exporters' code calls it); torch-area: torch's interpolate(mode="area"), i.e. adaptive average pooling in float.
RESIZERS = ("pillow", "opencv", "torch-area")
#: torchvision: shorter side int(), centre-crop offset round(); paddle: shorter side round(), crop offset floor.
SIZE_ROUNDINGS = ("torchvision", "paddle")
#: center: ultralytics' fit (round, centred); top_left: YOLOX's (int(), image at the top-left corner);
#: pad_then_resize: pad bottom/right to the box's aspect, then resize (nudenet); height: PaddleOCR's text-line
#: fit (full box height, width ceil(h_box * w / h) capped at the box width, padded on the right).
LETTERBOX_STYLES = ("center", "top_left", "pad_then_resize", "height")
LIMIT_TYPES = ("min", "max")


def _pair(value: Any, what: str) -> tuple[int, int] | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, value)
    try:
        if isinstance(value, (str, bytes, bool)):
            raise TypeError(value)
        h, w = (int(v) for v in value)
    except (TypeError, ValueError):
        raise InputError(f"{what}: {value!r} is not a size; give H,W or one integer") from None
    if h <= 0 or w <= 0:
        raise InputError(f"{what}: {h}x{w} must be positive")
    return (h, w)


@dataclass(frozen=True)
class PreprocessSpec:
    """One image input format. Sizes are (height, width); ``resize`` int = shorter side."""

    name: str
    color: str = "RGB"
    dtype: str = "float32"
    layout: str = "NCHW"
    resize: int | tuple[int, int] | None = None
    interpolation: str = "bilinear"
    center_crop: tuple[int, int] | None = None
    letterbox: tuple[int, int] | None = None
    pad_value: int = 114
    scale: float | None = None
    mean: tuple[float, ...] | None = None
    std: tuple[float, ...] | None = None
    fuse_normalization: bool = False
    fit_model_size: str | None = None
    resizer: str = "pillow"
    size_rounding: str = "torchvision"
    letterbox_style: str = "center"
    pad_output: float | None = None
    limit_side: int | None = None
    limit_type: str = "min"
    size_multiple: int | None = None
    image_input: str | None = None
    description: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        fix = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731 - normalise lists from JSON
        if isinstance(self.resize, bool):
            raise InputError(f"spec {self.name!r}: resize={self.resize!r}; give the shorter side or [height, width]")
        if not (self.resize is None or isinstance(self.resize, int)):
            fix("resize", _pair(self.resize, f"spec {self.name!r}: resize"))
        fix("center_crop", _pair(self.center_crop, f"spec {self.name!r}: center_crop"))
        fix("letterbox", _pair(self.letterbox, f"spec {self.name!r}: letterbox"))
        if self.pad_output is not None and not isinstance(self.pad_output, bool):
            fix("pad_output", float(self.pad_output))
        for key in ("mean", "std"):
            v = getattr(self, key)
            if v is not None:
                fix(key, tuple(float(x) for x in v))
        self.validate()

    # ----- checks --------------------------------------------------------------------------
    def validate(self) -> None:
        where = f"spec {self.name!r}"
        for key, allowed in (("color", COLORS), ("dtype", DTYPES), ("layout", LAYOUTS),
                             ("interpolation", INTERPOLATIONS), ("resizer", RESIZERS),
                             ("size_rounding", SIZE_ROUNDINGS), ("letterbox_style", LETTERBOX_STYLES),
                             ("limit_type", LIMIT_TYPES)):
            if getattr(self, key) not in allowed:
                raise InputError(f"{where}: {key}={getattr(self, key)!r} is not one of {', '.join(allowed)}")
        if isinstance(self.resize, int) and self.resize <= 0:
            raise InputError(f"{where}: resize {self.resize} must be positive")
        if self.center_crop and self.letterbox:
            raise InputError(f"{where}: centre crop and letterbox both set; a pipeline uses one of them")
        if self.letterbox and self.resize is not None:
            raise InputError(f"{where}: letterbox does its own aspect-preserving resize; drop 'resize'")
        if (self.mean is None) != (self.std is None):
            raise InputError(f"{where}: mean and std go together; give both or neither")
        if self.mean is not None:
            if len(self.mean) != self.channels or len(self.std or ()) != self.channels:
                raise InputError(f"{where}: mean/std need {self.channels} values for {self.color}")
            if any(s <= 0 for s in self.std or ()):
                raise InputError(f"{where}: std values must be > 0")
        if not 0 <= int(self.pad_value) <= 255:
            raise InputError(f"{where}: pad_value {self.pad_value} outside 0..255")
        normalises = self.scale is not None or self.mean is not None
        if self.dtype == "uint8" and normalises and not self.fuse_normalization:
            raise InputError(f"{where}: uint8 input with scale/mean/std needs fuse_normalization=true "
                             "(the model must do them) or dtype float32")
        if self.fuse_normalization and self.dtype != "uint8":
            raise InputError(f"{where}: fuse_normalization means the model takes raw uint8 pixels; set dtype uint8")
        if self.fit_model_size not in (None, "resize", "letterbox"):
            raise InputError(f"{where}: fit_model_size={self.fit_model_size!r} is not 'resize' or 'letterbox'")
        if self.fit_model_size and self.output_size is not None:
            raise InputError(f"{where}: fit_model_size with a fixed size; use one of them")
        if self.resizer == "opencv" and self.interpolation == "hamming":
            raise InputError(f"{where}: OpenCV has no hamming interpolation; choose another or resizer pillow")
        if self.resizer == "torch-area" and self.interpolation != "box":
            raise InputError(f"{where}: resizer torch-area averages areas; set interpolation 'box'")
        if self.resizer == "torch-area" and self.dtype == "uint8":
            raise InputError(f"{where}: resizer torch-area gives float pixels; set dtype float32")
        lettered = self.letterbox is not None or self.fit_model_size == "letterbox"
        if self.letterbox_style != "center" and not lettered:
            raise InputError(f"{where}: letterbox_style {self.letterbox_style!r} without a letterbox")
        if self.pad_output is not None and (not lettered or self.dtype != "float32"):
            raise InputError(f"{where}: pad_output (padding written after normalisation) needs a letterbox "
                             "and dtype float32")
        for key in ("limit_side", "size_multiple"):
            v = getattr(self, key)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v <= 0):
                raise InputError(f"{where}: {key}={v!r} must be a positive integer")
        if self.limit_side is not None and (self.resize is not None or lettered or self.center_crop
                                            or self.fit_model_size):
            raise InputError(f"{where}: limit_side is its own resize rule; drop resize/crop/letterbox/fit_model_size")
        if self.size_multiple is not None and self.limit_side is None:
            raise InputError(f"{where}: size_multiple rounds the limit_side rule; give limit_side too")

    # ----- derived facts -------------------------------------------------------------------
    @property
    def channels(self) -> int:
        return 1 if self.color == "GRAY" else 3

    @property
    def output_size(self) -> tuple[int, int] | None:
        """(H, W) of the tensor the pipeline produces, or None when it follows the image/model."""
        if self.letterbox:
            return self.letterbox
        if self.center_crop:
            return self.center_crop
        if isinstance(self.resize, tuple):
            return self.resize
        return None

    @property
    def value_range(self) -> str:
        """What the numbers at the model boundary mean: '0..255', '0..1', 'normalized' or 'scaled'."""
        if self.fuse_normalization or self.scale is None and self.mean is None:
            return "0..255"
        if self.mean is not None:
            return "normalized"
        return "0..1" if abs(float(self.scale) * 255.0 - 1.0) < 1e-9 else "scaled"

    def shape(self, size: tuple[int, int] | None = None) -> tuple[int, ...]:
        h, w = size or self.output_size or (None, None)
        if h is None:
            raise InputError(f"spec {self.name!r}: no fixed image size; bind it to a model first")
        c = self.channels
        return {"HWC": (h, w, c), "NHWC": (1, h, w, c), "NCHW": (1, c, h, w)}[self.layout]

    # ----- variants ------------------------------------------------------------------------
    def replace(self, **changes: Any) -> "PreprocessSpec":
        return dataclasses.replace(self, **changes)

    def unfused(self) -> "PreprocessSpec":
        """The same pipeline with scale/mean/std done in software: what the original float model takes."""
        if not self.fuse_normalization:
            return self
        return self.replace(name=f"{self.name}:unfused", fuse_normalization=False, dtype="float32")

    def with_size(self, size: tuple[int, int]) -> "PreprocessSpec":
        """Fill a spec that takes its size from the model (``fit_model_size``) with that size.

        PaddleOCR's side-limit rule follows the image; given a fixed model size it resizes to that size."""
        if self.limit_side is not None:
            return self.replace(limit_side=None, size_multiple=None, resize=(int(size[0]), int(size[1])))
        if not self.fit_model_size:
            return self
        key = "letterbox" if self.fit_model_size == "letterbox" else "resize"
        return self.replace(fit_model_size=None, **{key: (int(size[0]), int(size[1]))})

    # ----- (de)serialisation ---------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        for k, v in d.items():
            if isinstance(v, tuple):
                d[k] = list(v)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str | None = None) -> "PreprocessSpec":
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InputError(f"spec {name or data.get('name', '?')!r}: unknown field(s) {', '.join(unknown)}; "
                             f"known: {', '.join(sorted(known))}")
        values = dict(data)
        values.setdefault("name", name or "custom")
        return cls(**values)
