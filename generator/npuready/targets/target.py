"""The NPU target description shared by lint, partition and cost (frozen, validated)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

ACTIVATION_MODES = ("fused", "lut", "host")


@dataclass(frozen=True)
class Target:
    """One NPU target. Numbers come from the target's data file; ``sources`` says where each comes from."""

    name: str
    title: str
    kind: str  # "virtual" or "mirror"
    description: str
    array_rows: int
    array_cols: int
    cores: int
    clock_mhz: float
    sram_kib: int
    dram_gbps: float
    vector_lanes: int
    depthwise_engine: bool
    activations: Mapping[str, str]  # op_type -> fused | lut | host
    supported_ops: frozenset[str]
    energy: Mapping[str, float]
    host_gflops: float
    host_link_gbps: float
    sources: Mapping[str, str] = field(default_factory=dict)
    extra: Mapping[str, object] = field(default_factory=dict)

    @property
    def macs_per_cycle(self) -> int:
        return self.array_rows * self.array_cols * self.cores

    @property
    def tops(self) -> float:
        return 2.0 * self.macs_per_cycle * self.clock_mhz * 1e6 / 1e12

    def activation_mode(self, op_type: str) -> str | None:
        """fused / lut / host for a known activation, None when the op is not an activation."""
        return self.activations.get(op_type)

    def runs_on_npu(self, op_type: str) -> bool:
        mode = self.activations.get(op_type)
        if mode is not None:
            return mode != "host"
        return op_type in self.supported_ops
