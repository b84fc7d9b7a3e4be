"""What the importer rewrote, node by node: ``Rewrite`` (one change) and ``Imported`` (all of them)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

# kind → how the one-line summary names it (count first: "35 BatchNormalization folded")
KIND_TEXT = {
    "dynamic-dim": "dims made dynamic",
    "opset-upgraded": "opset upgraded",
    "opset-kept": "opset upgrade failed",
    "identity-removed": "Identity removed",
    "dropout-removed": "Dropout removed",
    "slope-initializer": "activation slopes made initializers",
    "batchnorm-folded": "BatchNormalization folded",
    "batchnorm-lowered": "BatchNormalization lowered to Mul+Add",
    "batchnorm-kept": "BatchNormalization kept",
}


@dataclass(frozen=True)
class Rewrite:
    """One change: its ``kind`` (a key of ``KIND_TEXT``), the node(s) or value(s) it touched, and what it did."""

    kind: str
    nodes: tuple[str, ...]
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "nodes": list(self.nodes), "detail": self.detail}


@dataclass(frozen=True)
class Imported:
    """Every rewrite the importer made to one model, in order, and the opset before and after."""

    rewrites: tuple[Rewrite, ...] = ()
    opset_from: int | None = None
    opset_to: int | None = None

    def __bool__(self) -> bool:
        return bool(self.rewrites)

    def counts(self) -> dict[str, int]:
        return dict(Counter(r.kind for r in self.rewrites))

    def of(self, kind: str) -> tuple[Rewrite, ...]:
        return tuple(r for r in self.rewrites if r.kind == kind)

    def summary(self) -> str:
        """One line, e.g. ``imported: 35 BatchNormalization folded, 1 Identity removed, opset 11 → 13``
        (``imported: unchanged`` when nothing was rewritten)."""
        parts = []
        for kind, n in self.counts().items():
            if kind == "opset-upgraded":
                parts.append(f"opset {self.opset_from} → {self.opset_to}")
            elif kind == "opset-kept":
                parts.append(f"opset {self.opset_from} kept (upgrade failed)")
            else:
                parts.append(f"{n} {KIND_TEXT.get(kind, kind)}")
        return "imported: " + (", ".join(parts) if parts else "unchanged")

    def to_dict(self) -> dict[str, Any]:
        return {"summary": self.summary(), "counts": self.counts(), "opset_from": self.opset_from,
                "opset_to": self.opset_to, "rewrites": [r.to_dict() for r in self.rewrites]}
