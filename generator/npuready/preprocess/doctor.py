"""Mismatch doctor: compare a saved runtime input tensor with the calibration tensor of the same image.

``diagnose(runtime, calib, spec=None)`` aligns the two step by step - layout, letterbox, crop /
resize, channel order, value scale - and names each difference it had to undo. A spec (the
intended preset) is optional: it resolves ambiguous layouts and lets the verdict name the
mean/std it expected. The kinds below are the common ways a runtime input drifts from calibration's.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from npuready.preprocess import doctor_geometry as geo
from npuready.preprocess.doctor_recipes import Recipe, explain
from npuready.preprocess.spec import PreprocessSpec

#: Mismatch kinds the doctor names (kind -> what it means), in the order it checks them.
KINDS: dict[str, str] = {
    "layout": "axis order differs (HWC vs NCHW, batch dimension, or planar data in an interleaved buffer)",
    "channels": "channel count differs (gray vs colour)",
    "letterbox_size": "both letterboxed, to different sizes (e.g. yolo_640 calibration for a yolo_1280 export)",
    "letterbox_missing": "one side letterboxes (constant padding), the other does not",
    "letterbox_pad": "both letterboxed alike, with different pad values (e.g. 0 vs 114)",
    "crop": "one side centre-crops, the other resizes without cropping",
    "resize": "same field of view at a different size",
    "interpolation": "same size and field of view, pixels differ: another resize interpolation (or decoder)",
    "channel_order": "RGB vs BGR",
    "scale_255": "one side divides by 255, the other keeps 0..255",
    "normalization": "one side subtracts mean / divides by std, the other does not",
    "unexplained": "the tensors differ in a way none of the known kinds explains",
}

STRUCTURE = 0.97      # structure correlation above which a geometric hypothesis is accepted
SAME = 0.9995         # structure correlation that counts as 'same geometry'


@dataclass(frozen=True)
class Finding:
    kind: str
    message: str

    def to_dict(self) -> dict:
        return {"kind": self.kind, "message": self.message}


@dataclass(frozen=True)
class Diagnosis:
    runtime: str                      # layout and shape, e.g. "NCHW [1, 3, 224, 224] float32"
    calibration: str
    findings: tuple[Finding, ...] = ()
    max_abs_diff: float | None = None  # after undoing every finding (None when not comparable)
    notes: tuple[str, ...] = field(default=())

    @property
    def matched(self) -> bool:
        return not self.findings

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.kind for f in self.findings))

    def to_dict(self) -> dict:
        return {"runtime": self.runtime, "calibration": self.calibration, "matched": self.matched,
                "kinds": list(self.kinds), "findings": [f.to_dict() for f in self.findings],
                "max_abs_diff": self.max_abs_diff, "notes": list(self.notes)}


def _label(c: geo.Canonical, x: np.ndarray) -> str:
    return f"{c.layout} {list(c.shape)} {np.asarray(x).dtype}"


def _size(a: np.ndarray) -> str:
    return f"{a.shape[0]}x{a.shape[1]}"


def _boxed(a: np.ndarray) -> str:
    """'640x640 (yolo_640)': the size and the letterbox preset of that size, if any."""
    from npuready.preprocess.presets import PRESETS

    names = [n for n, p in PRESETS.items() if p.letterbox == tuple(a.shape[:2])]
    return _size(a) + (f" ({', '.join(names)})" if names else "")


def _close(a: float | np.ndarray, b: float | np.ndarray, rel: float) -> bool:
    a, b = np.asarray(a, float), np.asarray(b, float)
    return bool(np.all(np.abs(a - b) <= rel * np.maximum(np.abs(b), 1e-12)))


def _for_fit(A: np.ndarray, B: np.ndarray, exact: bool) -> tuple[np.ndarray, np.ndarray]:
    """After a resampled alignment, compare coarse images so interpolation blur does not bias the fit."""
    if exact:
        return A, B
    size = geo.work_size(B.shape[:2])
    return geo.resample_hwc(A, size), geo.resample_hwc(B, size)


def _fit(y: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Per-channel least squares y_c = a_c x_c + b_c; returns a, b and the worst r^2."""
    a, b, r2 = [], [], []
    for k in range(x.shape[2]):
        xs, ys = x[:, :, k].ravel(), y[:, :, k].ravel()
        vx = xs.var()
        slope = float(((xs - xs.mean()) * (ys - ys.mean())).mean() / vx) if vx > 0 else 1.0
        a.append(slope)
        b.append(float(ys.mean() - slope * xs.mean()))
        r2.append(geo.corr(xs, ys) ** 2 if vx > 0 else 1.0)
    return np.array(a), np.array(b), float(min(r2))


def _normalisation(a: np.ndarray, b: np.ndarray, spec: PreprocessSpec | None, rel: float):
    """(k, std, mean) if ``y = k*(std*x + mean)`` explains the fit (k = 1 or 255), else None."""
    for k in (1.0, 255.0):
        std, mean = a / k, b / k
        if spec is not None and spec.mean is not None and len(spec.mean) == len(a):
            if _close(std, np.array(spec.std), rel) and np.all(np.abs(mean - np.array(spec.mean)) <= rel):
                return k, std, mean
        elif np.all((std > 0.02) & (std < 2.0)) and np.all((mean > -1.0) & (mean < 1.5)) \
                and not (_close(std, 1.0, rel) and np.all(np.abs(mean) < 0.02)):
            if k == 1.0 and np.median(a) > 3.0:
                continue
            return k, std, mean
    return None


def _stats_reversed(a: np.ndarray, b: np.ndarray, r2: float, exact: bool, span: float) -> bool:
    """True when, after reversing the channels, per-channel mean/std applied in the wrong channel
    order explain the rest: middle channel untouched, a0*a2 = 1 and b0 = -a0*b2 (offsets judged
    against the calibration value span)."""
    rel, off = (0.03, 0.005 * span) if exact else (0.12, 0.03 * span)
    if r2 < (0.99 if exact else 0.9) or _close(a, 1.0, rel) and np.all(np.abs(b) < 1e-3):
        return False
    return (_close(a[1], 1.0, rel) and abs(b[1]) <= off and _close(a[0] * a[2], 1.0, rel)
            and abs(b[0] + a[0] * b[2]) <= off)


def _values(A: np.ndarray, B: np.ndarray, spec: PreprocessSpec | None, exact: bool) -> list[Finding]:
    """Name the value transform mapping calibration values B onto runtime values A."""
    rel = 0.03 if exact else 0.12
    A, B = _for_fit(A, B, exact)
    a, b, r2 = _fit(A, B)
    span = float(B.max() - B.min()) or 1.0
    if r2 < (0.995 if exact else 0.9):
        return [Finding("unexplained", f"values differ beyond any per-channel scale/offset (r^2 {r2:.3f})")]
    if _close(a, 1.0, rel) and np.all(np.abs(b) <= 0.02 * span):
        return []
    if np.all(np.abs(b) <= 0.02 * float(A.max() - A.min() or 1.0)):
        if _close(a, 255.0, rel):
            return [Finding("scale_255", "runtime values are 255x calibration's: runtime passes 0..255 where "
                                         "calibration divides by 255 (missing /255)")]
        if _close(a, 1 / 255.0, rel):
            return [Finding("scale_255", "runtime values are 1/255 of calibration's: runtime divides by 255, "
                                         "calibration keeps 0..255")]
    fmt = lambda v: "(" + ", ".join(f"{x:.3f}" for x in v) + ")"  # noqa: E731
    offset = 0.02 * float(A.max() - A.min() or 1.0)
    pair = explain(a, b, spec, rel, offset)
    if pair and pair[0].stats and pair[1].stats:  # both sides normalise: the recipes tell what differs
        return _recipe_findings(*pair, a, b, fmt)
    found = _normalisation(a, b, spec, rel)
    if found:
        k, std, mean = found
        out = [Finding("normalization", f"runtime = calibration*std + mean with mean~{fmt(mean)} std~{fmt(std)}: "
                                        "calibration is normalised, runtime is not (missing normalisation, e.g. "
                                        "relying on a fused setting that is not active)")]
        if k == 255.0:
            out.insert(0, Finding("scale_255", "runtime passes 0..255 where calibration divides by 255 "
                                               "(missing /255)"))
        return out
    ia, ib, _ = _fit(B, A)
    found = _normalisation(ia, ib, spec, rel)
    if found:
        k, std, mean = found
        out = [Finding("normalization", f"calibration = runtime*std + mean with mean~{fmt(mean)} std~{fmt(std)}: "
                                        "runtime is normalised, calibration is not (e.g. raw uint8 calibration "
                                        "for a fused-normalisation model fed normalised floats)")]
        if k == 255.0:
            out.insert(0, Finding("scale_255", "runtime divides by 255, calibration keeps 0..255"))
        return out
    if pair:
        return _recipe_findings(*pair, a, b, fmt)
    return [Finding("unexplained", f"values relate by per-channel scale {fmt(a)} and offset {fmt(b)}, "
                                   "which no known preprocessing step explains")]


def _recipe_findings(runtime: Recipe, calib: Recipe, a: np.ndarray, b: np.ndarray, fmt) -> list[Finding]:
    """Name what differs between two standard recipes: the /255 (scale_255) and/or the mean/std (normalization)."""
    relation = f"fitted: runtime = calibration × {fmt(a)} + {fmt(b)}"
    out = []
    if runtime.divides != calib.divides:
        missing, other = ("runtime", "calibration") if calib.divides else ("calibration", "runtime")
        if runtime.stats is not None and runtime.stats == calib.stats:
            out.append(Finding("scale_255", f"mean/std applied without /255: {missing} normalises 0..255 values "
                                            f"with {runtime.stats} where {other} divides by 255 first (the /255 "
                                            f"before Normalize is missing); {missing} = 255 × {other} + "
                                            f"254·mean/std per channel ({relation})"))
        else:
            out.append(Finding("scale_255", f"{other} divides by 255, {missing} keeps 0..255 ({relation})"))
    if runtime.stats != calib.stats:
        out.append(Finding("normalization", f"runtime is {runtime.describe()}, calibration is {calib.describe()} "
                                            f"({relation})"))
    return out


def _geometry(r: np.ndarray, c: np.ndarray, findings: list[Finding], spec: PreprocessSpec | None):
    """Align runtime image r and calibration image c spatially.

    Returns (A, B, exact, pads) or None when no known transform aligns them; ``pads`` holds the
    two pad colours when both are letterboxed identically (else None)."""
    lr, lc = geo.letterbox_content(r), geo.letterbox_content(c)
    boxed = bool(lr or lc)
    if lr and lc and r.shape[:2] != c.shape[:2]:
        findings.append(Finding("letterbox_size", f"runtime is letterboxed to {_boxed(r)}, calibration to "
                                                  f"{_boxed(c)}: a preset of one size reused for the other"))
    elif bool(lr) != bool(lc):
        who, other = ("runtime", "calibration") if lr else ("calibration", "runtime")
        findings.append(Finding("letterbox_missing", f"{who} letterboxes (constant padding), {other} does not"))
    rc = r[lr[0]:lr[1], lr[2]:lr[3]] if lr else r
    cc = c[lc[0]:lc[1], lc[2]:lc[3]] if lc else c
    gr, gc = geo.gray(rc), geo.gray(cc)
    if rc.shape[:2] == cc.shape[:2] and geo.corr(gr, gc) >= SAME:
        same_box = bool(lr and lc) and r.shape == c.shape
        return rc, cc, not boxed or same_box, (r[0, 0], c[0, 0]) if same_box else None
    fwd = geo.find_centred_box(gr, gc)
    if fwd.score >= STRUCTURE:
        src, dst, match, runtime_larger = rc, cc, fwd, True
    else:
        back = geo.find_centred_box(gc, gr)
        if back.score < STRUCTURE:
            findings.append(Finding("unexplained", f"image content differs (best centred-crop match r="
                                                   f"{max(fwd.score, back.score):.3f}): not the same image, or a "
                                                   "geometric transform the doctor does not know"))
            return None
        src, dst, match, runtime_larger = cc, rc, back, False
    full = match.fy >= 0.99 and match.fx >= 0.99
    letterbox_spec = spec is not None and (spec.letterbox is not None or spec.fit_model_size == "letterbox")
    if full and not boxed and letterbox_spec and rc.shape != cc.shape:
        findings.append(Finding("letterbox_size", f"runtime is letterboxed to {_boxed(r)}, calibration to "
                                                  f"{_boxed(c)} (spec {spec.name}; this image fills the box)"))
    elif full and not boxed and rc.shape == cc.shape:
        findings.append(Finding("interpolation", f"same size {_size(rc)} and field of view, but the pixels differ "
                                                 f"(structure correlation {geo.corr(gr, gc):.4f}): another resize "
                                                 "interpolation, or a different decoder"))
    elif full and not boxed:
        findings.append(Finding("resize", f"same field of view, runtime {_size(rc)} vs calibration {_size(cc)}"))
    elif not full:
        inner, outer = ("calibration", "runtime") if runtime_larger else ("runtime", "calibration")
        findings.append(Finding("crop", f"{inner} shows the centre {match.fy:.0%} x {match.fx:.0%} of the "
                                        f"{outer} image: {inner} centre-crops, {outer} resizes without cropping"))
    box = geo.centred_box(src.shape[0], src.shape[1], match.fy, match.fx)
    moved = geo.resample_hwc(src, dst.shape[:2], box)
    return ((moved, dst) if runtime_larger else (dst, moved)) + (False, None)


def diagnose(runtime: np.ndarray, calib: np.ndarray, spec: PreprocessSpec | None = None) -> Diagnosis:
    """Compare one runtime input tensor with the calibration tensor of the same image."""
    hint = spec.layout if spec is not None else None
    R = geo.canonical(runtime, "runtime tensor", hint)
    C = geo.canonical(calib, "calibration tensor", hint)
    labels = dict(runtime=_label(R, runtime), calibration=_label(C, calib))
    findings: list[Finding] = []
    r, c = R.hwc, C.hwc
    tol = 0.006 * float(c.max() - c.min() or 1.0)  # ~1.5 LSB of an 8-bit image's range
    if R.layout == C.layout and r.shape == c.shape and float(np.abs(r - c).max()) <= tol:
        dtypes = (np.asarray(runtime).dtype, np.asarray(calib).dtype)
        notes = (f"element types differ ({dtypes[0]} vs {dtypes[1]}) but the values agree; the compiled "
                 "input takes one of them",) if dtypes[0] != dtypes[1] else ()
        return Diagnosis(**labels, max_abs_diff=float(np.abs(r - c).max()), notes=notes)
    declared = f"runtime is {R.layout} {list(R.shape)}, calibration is {C.layout} {list(C.shape)}"
    if not (r.shape == c.shape and geo.corr(geo.gray(r), geo.gray(c)) >= STRUCTURE):
        for what, fixed in geo.reinterpretations(runtime, C):
            if geo.corr(geo.gray(fixed), geo.gray(c)) >= SAME:
                findings.append(Finding("layout", f"{declared}, and the runtime buffer holds {what} "
                                                  "(reshaped where it should be transposed)"))
                r = fixed
                break
    if R.layout != C.layout and not findings:
        findings.append(Finding("layout", declared))
    if r.shape[2] != c.shape[2]:
        findings.append(Finding("channels", f"runtime has {r.shape[2]} channel(s), calibration {c.shape[2]}"))
        r, c = r.mean(axis=2, keepdims=True), c.mean(axis=2, keepdims=True)
    aligned = _geometry(r, c, findings, spec)
    if aligned is None:
        return Diagnosis(**labels, findings=tuple(findings))
    A, B, exact, pads = aligned
    if A.shape[2] == 3:
        m = np.array([[geo.corr(A[:, :, i], B[:, :, j]) for j in range(3)] for i in range(3)])
        same, swapped = np.trace(m) / 3, (m[2, 0] + m[1, 1] + m[0, 2]) / 3
        if swapped > same + 0.005:
            findings.append(Finding("channel_order", f"runtime channels are reversed relative to calibration "
                                                     f"(RGB vs BGR; channel correlation {same:.3f} as given, "
                                                     f"{swapped:.3f} reversed)"))
            A = A[:, :, ::-1]
            a, b, r2 = _fit(*_for_fit(A, B, exact))
            if _stats_reversed(a, b, r2, exact, float(B.max() - B.min()) or 1.0):
                findings[-1] = Finding("channel_order", findings[-1].message + "; per-channel mean/std were "
                                                                               "applied in the other order too")
                A = (A - b) / a  # undo the swapped statistics so the value check sees the rest
    value_findings = _values(A, B, spec, exact)
    findings.extend(value_findings)
    if pads is not None and not value_findings and float(np.abs(pads[0] - pads[1]).max()) > tol:
        show = lambda v: f"{v[0]:g}" if np.all(v == v[0]) else "(" + ", ".join(f"{x:g}" for x in v) + ")"  # noqa: E731
        findings.append(Finding("letterbox_pad", f"runtime pads the letterbox with {show(pads[0])}, "
                                                 f"calibration with {show(pads[1])}"))
    diff = float(np.abs(A - B).max()) if not value_findings else None
    if exact and not findings and diff is not None:
        tol = 0.006 * float(B.max() - B.min() or 1.0)
        if diff > tol:
            findings.append(Finding("interpolation", f"same geometry, but pixels differ by up to {diff:.4g} "
                                                     f"(> {tol:.4g}, about 1.5 LSB of the calibration range): another "
                                                     "resize interpolation, or a different decoder"))
    return Diagnosis(**labels, findings=tuple(findings), max_abs_diff=diff)
