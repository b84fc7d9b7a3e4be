"""Why a finding does not fail the run: a configuration waiver or a baseline entry (data only).

A waiver that has expired stays attached with ``active=False``: the finding fails again and every
renderer says that its waiver expired.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

WAIVER = "waiver"
BASELINE = "baseline"


@dataclass(frozen=True)
class Suppression:
    kind: str              # WAIVER or BASELINE
    reason: str            # the waiver's mandatory reason, or which baseline file recorded the finding
    source: str            # where it was declared: "pyproject.toml: waive[2]" or the baseline file
    active: bool = True    # False: an expired waiver, shown but no longer waiving
    expires: dt.date | None = None

    @property
    def tag(self) -> str:
        """The short label every text-like renderer prints next to the finding."""
        if self.kind == BASELINE:
            return "baselined"
        if not self.active:
            return f"waiver expired {self.expires.isoformat() if self.expires else ''}: {self.reason}"
        return f"waived: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "reason": self.reason, "source": self.source, "active": self.active,
                "expires": self.expires.isoformat() if self.expires else None}
