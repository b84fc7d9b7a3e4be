"""The explicit probe registry: name → Probe, in table order."""
from __future__ import annotations

from npuready.probes.activations import ACTIVATION_PROBES
from npuready.probes.ops import OP_PROBES
from npuready.probes.patterns import PATTERN_PROBES
from npuready.probes.probe import Probe

PROBES: dict[str, Probe] = {p.name: p for p in (*ACTIVATION_PROBES, *OP_PROBES, *PATTERN_PROBES)}


def activation_probe(op_type: str) -> Probe | None:
    """The probe that measures activation ``op_type`` (None when there is none)."""
    p = PROBES.get(op_type)
    return p if p is not None and p.group == "activation" else None
