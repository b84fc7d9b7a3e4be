"""How a stored number is shown. One rule for the whole site, so a browser test can check it.

- integers: exact, with thousands separators (``1,884``);
- floats: 4 significant digits (``0.2853``), whole numbers from 10,000 up (``12,346``),
  scientific below 1e-4 (``1.234e-05``);
- ``pct=True``: the stored fraction × 100 with ``digits`` decimals and a ``%`` sign (``28.5%``).
"""
from __future__ import annotations

import math


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def format_number(value: int | float, pct: bool = False, digits: int | None = None) -> str:
    if pct:
        return f"{value * 100:,.{1 if digits is None else digits}f}%"
    if digits is not None:
        return f"{value:,.{digits}f}"
    if isinstance(value, int):
        return f"{value:,}"
    magnitude = abs(value)
    if magnitude == 0:
        return "0"
    if magnitude >= 1e4:
        return f"{round(value):,}"
    if magnitude < 1e-4:
        return f"{value:.3e}"
    return f"{value:.4g}"
