"""Geometry half of the mismatch doctor: layouts, letterbox borders, crop/resize search.

All comparisons of image *structure* use Pearson correlation of the channel-mean image, which
is blind to per-channel scale/offset (so /255 or mean/std differences do not hide a crop).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npuready.errors import InputError

WORK = 64          # working resolution of the crop search (longer side, pixels)
MIN_SIDE = 4


@dataclass(frozen=True)
class Canonical:
    """One tensor as an H x W x C float64 image plus how it was laid out."""

    hwc: np.ndarray
    layout: str          # HWC, NHWC, CHW, NCHW or HW
    shape: tuple[int, ...]


def _is_ch(n: int) -> bool:
    return n in (1, 3)


def canonical(x: np.ndarray, what: str, hint: str | None = None) -> Canonical:
    """Read an image tensor of layout HW, HWC, CHW, NHWC or NCHW (batch 1)."""
    a = np.asarray(x)
    if a.dtype.kind not in "uif" or a.size == 0:
        raise InputError(f"{what}: dtype {a.dtype} shape {a.shape}; expected a numeric image tensor")
    if not np.all(np.isfinite(a)):
        raise InputError(f"{what}: contains NaN or infinity")
    s = a.shape
    if a.ndim == 4:
        if s[0] != 1:
            raise InputError(f"{what}: batch of {s[0]}; save one image (batch 1) per file")
        first, last = _is_ch(s[1]), _is_ch(s[3])
        layout = "NCHW" if first and not last else "NHWC" if last and not first else (hint or "")
        if layout not in ("NCHW", "NHWC"):
            raise InputError(f"{what}: shape {list(s)} is ambiguous; pass --spec with the layout")
        hwc = a[0].transpose(1, 2, 0) if layout == "NCHW" else a[0]
    elif a.ndim == 3:
        first, last = _is_ch(s[0]), _is_ch(s[2])
        layout = "CHW" if first and not last else "HWC" if last and not first else \
            {"NCHW": "CHW", "HWC": "HWC", "NHWC": "HWC"}.get(hint or "", "")
        if not layout:
            raise InputError(f"{what}: shape {list(s)} is ambiguous; pass --spec with the layout")
        hwc = a.transpose(1, 2, 0) if layout == "CHW" else a
    elif a.ndim == 2:
        layout, hwc = "HW", a[:, :, None]
    else:
        raise InputError(f"{what}: rank {a.ndim} shape {list(s)}; expected an image (HW, HWC, CHW, NHWC, NCHW)")
    if min(hwc.shape[:2]) < MIN_SIDE:
        raise InputError(f"{what}: image {hwc.shape[0]}x{hwc.shape[1]} is too small to diagnose")
    return Canonical(np.ascontiguousarray(hwc, dtype=np.float64), layout, tuple(int(d) for d in s))


def reinterpretations(x: np.ndarray, target: Canonical) -> list[tuple[str, np.ndarray]]:
    """The runtime buffer ``x`` read in the memory orders that give ``target``'s H x W x C: the
    'same element count, wrong axis order' failure (reshaped instead of transposed)."""
    h, w, ch = target.hwc.shape
    flat = np.asarray(x, dtype=np.float64).reshape(-1)
    if ch == 1 or flat.size != h * w * ch:
        return []
    return [("planar (CHW) data", flat.reshape(ch, h, w).transpose(1, 2, 0)),
            ("interleaved (HWC) data", flat.reshape(h, w, ch))]


def gray(hwc: np.ndarray) -> np.ndarray:
    return hwc.mean(axis=2)


def corr(a: np.ndarray, b: np.ndarray) -> float:
    a = a.ravel() - a.mean()
    b = b.ravel() - b.mean()
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / den) if den > 0 else (1.0 if np.allclose(a, b) else 0.0)


def resample(img2d: np.ndarray, size: tuple[int, int],
             box: tuple[float, float, float, float] | None = None) -> np.ndarray:
    """Bilinear resize of a 2-D float image (optionally of a sub-box left, top, right, bottom)."""
    from PIL import Image

    im = Image.fromarray(np.asarray(img2d, dtype=np.float32), mode="F")
    out = im.resize((size[1], size[0]), Image.Resampling.BILINEAR, box=box)
    return np.asarray(out, dtype=np.float64)


def resample_hwc(hwc: np.ndarray, size: tuple[int, int], box=None) -> np.ndarray:
    return np.stack([resample(hwc[:, :, k], size, box) for k in range(hwc.shape[2])], axis=2)


def work_size(shape: tuple[int, int], longer: int = WORK) -> tuple[int, int]:
    """(H, W) with the longer side ``longer`` (never larger than ``shape``), aspect kept."""
    h, w = shape
    k = min(1.0, longer / max(h, w))
    return max(MIN_SIDE, int(round(h * k))), max(MIN_SIDE, int(round(w * k)))


def letterbox_content(hwc: np.ndarray) -> tuple[int, int, int, int] | None:
    """(top, bottom, left, right) of the content inside constant padding, or None (no letterbox).

    A border row/column counts as padding when every channel stays within ~2.5 LSB of the
    corners' median along it; at least 2 px of padding on one axis, split evenly (+-1 px).
    """
    h, w, _ = hwc.shape
    corners = np.stack([hwc[0, 0], hwc[0, -1], hwc[-1, 0], hwc[-1, -1]])
    corner = np.median(corners, axis=0)
    span = float(hwc.max() - hwc.min()) or 1.0
    tol = 0.01 * span  # ~2.5 LSB of an 8-bit range: padding survives sensor/rounding noise
    flat = np.abs(hwc - corner).max(axis=2) <= tol
    row_pad, col_pad = np.all(flat, axis=1), np.all(flat, axis=0)

    def run(flags: np.ndarray) -> int:
        nz = np.flatnonzero(~flags)
        return int(nz[0]) if nz.size else len(flags)

    top, bottom = run(row_pad), run(row_pad[::-1])
    left, right = run(col_pad), run(col_pad[::-1])
    if top + bottom >= h or left + right >= w:
        return None
    vertical, horizontal = top + bottom, left + right
    if max(vertical, horizontal) < 2:
        return None
    if (vertical and abs(top - bottom) > 1) or (horizontal and abs(left - right) > 1):
        return None
    if vertical and horizontal:
        return None  # a letterbox pads one axis only
    return top, h - bottom, left, w - right


@dataclass(frozen=True)
class BoxMatch:
    """The centred part (fractions fy, fx) of ``src`` that best matches ``dst``; ``score`` is the
    structure correlation at the working resolution (fine detail such as star fields aliases
    differently at full resolution, so acceptance is judged on the coarse image)."""

    fy: float
    fx: float
    score: float


def _centred_box(h: int, w: int, fy: float, fx: float) -> tuple[float, float, float, float]:
    dy, dx = h * (1 - fy) / 2, w * (1 - fx) / 2
    return dx, dy, w - dx, h - dy


def find_centred_box(src: np.ndarray, dst: np.ndarray, lo: float = 0.3) -> BoxMatch:
    """Search fractions (fy, fx) in [lo, 1] so that src's centred box resized to dst matches dst."""
    h0, w0 = src.shape
    shrink = min(1.0, 4 * WORK / max(h0, w0))  # search on a <= 256 px copy; boxes scale with it
    if shrink < 1.0:
        src = resample(src, (max(MIN_SIDE, int(round(h0 * shrink))), max(MIN_SIDE, int(round(w0 * shrink)))))
    h, w = src.shape
    work = work_size(dst.shape)
    target = resample(dst, work)

    def score(fy: float, fx: float) -> float:
        return corr(resample(src, work, _centred_box(h, w, fy, fx)), target)

    best = BoxMatch(1.0, 1.0, score(1.0, 1.0))
    coarse = np.round(np.arange(lo, 1.0 + 1e-9, 0.05), 4)
    for fy in coarse:
        for fx in coarse:
            s = score(float(fy), float(fx))
            if s > best.score:
                best = BoxMatch(float(fy), float(fx), s)
    for step in (0.01, 0.002):
        cy, cx = best.fy, best.fx
        for fy in np.clip(cy + step * np.arange(-5, 6), lo, 1.0):
            for fx in np.clip(cx + step * np.arange(-5, 6), lo, 1.0):
                s = score(float(fy), float(fx))
                if s > best.score:
                    best = BoxMatch(float(fy), float(fx), s)
    return BoxMatch(round(best.fy, 3), round(best.fx, 3), best.score)


def centred_box(h: int, w: int, fy: float, fx: float) -> tuple[float, float, float, float]:
    return _centred_box(h, w, fy, fx)
