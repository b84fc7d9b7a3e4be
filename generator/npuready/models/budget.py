"""Time-budgeted training: the learning-rate schedule follows the fraction of a time budget used.

On a shared CPU the number of epochs that fit in a deadline is unknown in advance, so instead of
``OneCycleLR`` over a fixed step count the schedule is the same one-cycle shape (linear warm-up from
``max_lr/25`` over the first 25 %, cosine annealing to ``max_lr/1e4``) evaluated at
``p = used / budget``; training stops when ``p`` reaches 1. ``clock="cpu"`` measures process CPU
time (for a 1-thread run: the time an idle machine would take), ``clock="wall"`` wall time.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from npuready.errors import InputError

CLOCKS = ("cpu", "wall")
WARMUP = 0.25


@dataclass
class Budget:
    seconds: float
    clock: str = "cpu"
    _start: float = field(default=0.0, repr=False)

    def __post_init__(self) -> None:
        if self.seconds <= 0:
            raise InputError(f"training budget {self.seconds} s: must be positive")
        if self.clock not in CLOCKS:
            raise InputError(f"budget clock {self.clock!r}: unknown; use one of {', '.join(CLOCKS)}")

    def now(self) -> float:
        return time.process_time() if self.clock == "cpu" else time.perf_counter()

    def start(self) -> None:
        self._start = self.now()

    def fraction(self) -> float:
        return (self.now() - self._start) / self.seconds


def one_cycle_factor(p: float) -> float:
    """Multiplier of ``max_lr`` at progress ``p`` in [0, 1] (OneCycleLR's default shape)."""
    p = min(max(p, 0.0), 1.0)
    if p < WARMUP:
        return 1 / 25 + (1 - 1 / 25) * p / WARMUP
    q = (p - WARMUP) / (1 - WARMUP)
    low = 1e-4
    return low + (1 - low) * (1 + math.cos(math.pi * q)) / 2
