"""The cost report: frozen data (one ``LayerCost`` per node, totals), rendered elsewhere.

Every figure here is **simulated**: it comes from the analytic model of a target (virtual NPU or a
mirror of an external tool's configuration), never from silicon.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

EVIDENCE = "simulated"
BASIS = ("analytic per-layer model of the target (npuready.cost): output-stationary systolic or dot-product "
         "GEMM cycles, vector-unit cycles, bandwidth-limited memory cycles; simulated, not measured on silicon")


@dataclass(frozen=True)
class LayerCost:
    node: str
    op_type: str
    device: str  # npu | cpu | folded
    kind: str  # gemm | depthwise | pool | elementwise | move | free | host
    m: int
    k: int
    n: int
    groups: int
    tiles: int
    macs: int
    compute_cycles: int
    memory_cycles: int
    cycles: int  # NPU: max(compute, memory) + DRAM latency (once per layer touching DRAM); CPU: host time
    #             in NPU clock cycles
    bound: str  # compute | memory | host | none
    utilisation: float  # MACs / (cycles * MACs per cycle) of the MAC array
    sram_bytes: int
    dram_bytes: int
    energy_uj: float
    host_s: float = 0.0
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        # the flat fields read directly: ``dataclasses.asdict`` deep-copies each value (14 of 39 s of a
        # 20,000-node report went there); same keys, order and values
        d = {name: getattr(self, name) for name in _LAYER_FIELDS}
        d["utilisation"] = round(self.utilisation, 6)
        d["energy_uj"] = round(self.energy_uj, 6)
        d["host_s"] = round(self.host_s, 12)
        return d


_LAYER_FIELDS = tuple(f.name for f in fields(LayerCost))


@dataclass(frozen=True)
class Transfer:
    """A tensor crossing between host and NPU, costed as the NPU build moves it: ``elements`` × ``dtype``
    (int8 activations) = ``bytes``. ``export_dtype``/``export_bytes``: the same tensor in the ONNX graph
    (a float export: float32), which is what ``npuready partition`` reports."""

    tensor: str
    direction: str  # cpu→npu | npu→cpu
    bytes: int
    seconds: float
    elements: int = 0
    dtype: str = "int8"
    export_dtype: str | None = None
    export_bytes: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"tensor": self.tensor, "direction": self.direction, "elements": self.elements, "dtype": self.dtype,
                "bytes": self.bytes, "export_dtype": self.export_dtype, "export_bytes": self.export_bytes,
                "seconds": round(self.seconds, 12)}


@dataclass(frozen=True)
class CostReport:
    model: str
    target: str
    clock_mhz: float
    macs_per_cycle: int
    layers: tuple[LayerCost, ...]
    transfers: tuple[Transfer, ...]
    placement_source: str
    notes: tuple[str, ...] = field(default=())
    shapes: dict[str, Any] = field(default_factory=dict)  # graph.shape_summary.shape_summary(): folded counts, pins

    # ----- totals ---------------------------------------------------------------------------
    @property
    def npu_cycles(self) -> int:
        return sum(layer.cycles for layer in self.layers if layer.device == "npu")

    @property
    def host_s(self) -> float:
        return sum(layer.host_s for layer in self.layers)

    @property
    def transfer_s(self) -> float:
        return sum(t.seconds for t in self.transfers)

    @property
    def latency_s(self) -> float:
        return self.npu_cycles / (self.clock_mhz * 1e6) + self.host_s + self.transfer_s

    @property
    def cycles(self) -> int:
        """End-to-end latency in NPU clock cycles (host time and transfers converted at the NPU clock)."""
        return self.npu_cycles + round((self.host_s + self.transfer_s) * self.clock_mhz * 1e6)

    @property
    def macs(self) -> int:
        return sum(layer.macs for layer in self.layers)

    def total(self) -> dict[str, Any]:
        npu_macs = sum(layer.macs for layer in self.layers if layer.device == "npu")
        util = npu_macs / (self.npu_cycles * self.macs_per_cycle) if self.npu_cycles else 0.0
        latency = self.latency_s
        return {
            "cycles": self.cycles, "npu_cycles": self.npu_cycles, "latency_s": round(latency, 12),
            "inferences_per_s": round(1.0 / latency, 6) if latency > 0 else None,
            "host_s": round(self.host_s, 12), "transfer_s": round(self.transfer_s, 12),
            "transfer_bytes": sum(t.bytes for t in self.transfers),
            "transfer_elements": sum(t.elements for t in self.transfers),
            "transfer_export_bytes": sum(t.export_bytes or 0 for t in self.transfers), "macs": self.macs,
            "npu_utilisation": round(util, 6),
            "sram_bytes": sum(layer.sram_bytes for layer in self.layers),
            "dram_bytes": sum(layer.dram_bytes for layer in self.layers),
            "energy_uj": round(sum(layer.energy_uj for layer in self.layers), 6),
            "layers_npu": sum(1 for layer in self.layers if layer.device == "npu"),
            "layers_cpu": sum(1 for layer in self.layers if layer.device == "cpu"),
            "compute_bound": sum(1 for layer in self.layers if layer.bound == "compute"),
            "memory_bound": sum(1 for layer in self.layers if layer.bound == "memory"),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "evidence": EVIDENCE, "basis": BASIS, "model": self.model, "target": self.target,
            "clock_mhz": self.clock_mhz, "macs_per_cycle": self.macs_per_cycle,
            "placement_source": self.placement_source, "notes": list(self.notes), "shapes": self.shapes,
            "total": self.total(), "layers": [layer.to_dict() for layer in self.layers],
            "transfers": [t.to_dict() for t in self.transfers],
        }
