"""Value half of the mismatch doctor, part two: standard value recipes and the affine relation
between any two of them.

A recipe maps a pixel ``x`` (0..255) to ``v = (s·x − m) / σ`` per channel (scale ``s``, mean ``m``,
std ``σ``). Two recipes applied to the same image are related channel by channel by an affine map:
with ``x = (σ_c·v_c + m_c) / s_c`` from the calibration side,

    runtime = a · calibration + b,   a = (s_r·σ_c) / (s_c·σ_r),   b = (s_r·m_c / s_c − m_r) / σ_r.

The commonest real mistake, mean/std applied to 0..255 values (the /255 before ``Normalize`` forgotten):
runtime ``(x − m)/σ``, calibration ``(x/255 − m)/σ``, so ``a = 255`` and ``b = 254·m/σ``:
runtime = 255 × calibration + 254·mean/std. ``explain`` finds the pair of recipes whose relation
matches a fitted (a, b); the doctor names what differs between them.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npuready.preprocess.presets import IMAGENET_MEAN, IMAGENET_STD, UNIT
from npuready.preprocess.spec import PreprocessSpec


@dataclass(frozen=True)
class Recipe:
    """``v = (scale·x − mean) / std`` on 0..255 pixels; ``stats`` names the mean/std (``None``: none)."""

    scale: float
    mean: tuple[float, ...] = (0.0,)
    std: tuple[float, ...] = (1.0,)
    stats: str | None = None

    @property
    def divides(self) -> bool:
        return abs(self.scale - UNIT) < 1e-12

    def describe(self) -> str:
        scale = "x/255" if self.divides else "x (0..255)" if self.scale == 1.0 else f"x·{self.scale:g}"
        return scale if self.stats is None else f"({scale} − mean) / std with {self.stats}"

    def arrays(self, channels: int) -> tuple[float, np.ndarray, np.ndarray]:
        def per_channel(v: tuple[float, ...]) -> np.ndarray:
            return np.resize(np.asarray(v, float), channels)
        return self.scale, per_channel(self.mean), per_channel(self.std)


def _stats_text(mean, std) -> str:
    show = lambda v: "(" + ", ".join(f"{x:g}" for x in v) + ")"  # noqa: E731
    return f"mean {show(mean)} std {show(std)}"


def standard_stats(spec: PreprocessSpec | None = None) -> list[tuple[str, tuple, tuple]]:
    """Named mean/std sets: ImageNet, the [-1, 1] mapping (0.5/0.5), and the spec's own when it has one."""
    stats = [(f"ImageNet {_stats_text(IMAGENET_MEAN, IMAGENET_STD)}", IMAGENET_MEAN, IMAGENET_STD),
             ("mean 0.5 std 0.5 (the [-1, 1] mapping)", (0.5,), (0.5,))]
    if spec is not None and spec.mean is not None and tuple(spec.mean) != IMAGENET_MEAN:
        stats.append((f"the spec's {_stats_text(spec.mean, spec.std)}", tuple(spec.mean), tuple(spec.std)))
    return stats


def recipes(spec: PreprocessSpec | None = None) -> list[Recipe]:
    """Every standard recipe: 0..255 or x/255, each without or with every named mean/std."""
    out = [Recipe(1.0), Recipe(UNIT)]
    for name, mean, std in standard_stats(spec):
        out += [Recipe(UNIT, mean, std, name), Recipe(1.0, mean, std, name)]
    return out


def relation(runtime: Recipe, calib: Recipe, channels: int) -> tuple[np.ndarray, np.ndarray]:
    """(a, b) per channel with runtime = a · calibration + b for the same image."""
    sr, mr, dr = runtime.arrays(channels)
    sc, mc, dc = calib.arrays(channels)
    return (sr * dc) / (sc * dr), (sr * mc / sc - mr) / dr


def explain(a: np.ndarray, b: np.ndarray, spec: PreprocessSpec | None, rel: float,
            offset: float) -> tuple[Recipe, Recipe] | None:
    """The (runtime, calibration) pair of different standard recipes whose relation matches the fitted
    per-channel ``a`` (relative tolerance ``rel``) and ``b`` (``rel`` of its size plus ``offset``); the
    closest one when several match, None when none does."""
    channels = len(a)
    best, best_err = None, np.inf
    for r in recipes(spec):
        for c in recipes(spec):
            if r == c:
                continue
            ea, eb = relation(r, c, channels)
            err_a = np.abs(a - ea) / np.maximum(np.abs(ea), 1e-12)
            err_b = np.abs(b - eb) / (rel * np.abs(eb) + offset)
            if np.all(err_a <= rel) and np.all(err_b <= 1.0):
                err = float(err_a.max() / rel + err_b.max())
                if err < best_err:
                    best, best_err = (r, c), err
    return best
