"""The NPU target description shared by lint, partition and cost (frozen, validated)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

ACTIVATION_MODES = ("fused", "lut", "lowered", "host")
# How a target runs a normalisation / an interpolation mode: natively (a kernel), on the vector unit (an
# unfolded BatchNorm as per-channel Mul + Add), through its compiler's lowering into supported ops, or not
# at all (host). npuready.lint.policy turns the mode into a lint severity.
RUN_MODES = ("native", "vector", "lowered", "host")
NORM_OPS = ("BatchNormalization", "LayerNormalization", "InstanceNormalization", "GroupNormalization",
            "LpNormalization", "MeanVarianceNormalization", "RMSNormalization")
INTERPOLATIONS = ("nearest", "linear", "cubic")
# ONNX Resize coordinate_transformation_mode values (the opset 11+ spellings)
COORDINATE_TRANSFORMS = ("half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric",
                         "tf_half_pixel_for_nn", "tf_crop_and_resize")


@dataclass(frozen=True)
class ResizeSupport:
    """What a target's Resize runs: a mode per interpolation and, for compilers with fixed upscalers
    (Arm Vela), the allowed integer scale factors and coordinate transforms. ``None`` = no limit."""

    modes: Mapping[str, str]  # nearest | linear | cubic -> native | lowered | host
    scales: tuple[int, ...] | None = None  # upscale factors allowed besides identity and a 1x1 input
    half_pixel_scales: tuple[int, ...] | None = None  # linear with half-pixel centres: only these factors
    coordinate_transforms: frozenset[str] | None = None

    def mode(self, interpolation: str) -> str:
        return self.modes.get(interpolation, "host")
ENGINES = ("systolic-os", "dot-product")  # how the MAC array consumes a GEMM (see npuready.cost.gemm)
WEIGHT_MEMORIES = ("dram", "sram")


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
    activations: Mapping[str, str]  # op_type -> fused | lut | lowered | host
    supported_ops: frozenset[str]
    energy: Mapping[str, float]
    host_gflops: float
    host_link_gbps: float
    sources: Mapping[str, str] = field(default_factory=dict)
    extra: Mapping[str, object] = field(default_factory=dict)
    # --- cost-model fields (optional in the data file; defaults describe a plain systolic array) ---
    engine: str = "systolic-os"  # systolic-os: rows x cols PEs, K streamed one step per cycle
    dot_width: int = 1  # K elements one PE reduces per cycle (8 for the Ethos-U dot-product engine)
    sram_gbps: float | None = None  # on-chip bandwidth; None = never the bottleneck
    weight_memory: str = "dram"  # where weights stream from: dram (off-chip / flash) or sram
    output_elems_per_cycle: float | None = None  # GEMM output stage throughput; None = inside the array formula
    elementwise_elems_per_cycle: float | None = None  # binary elementwise throughput; None = vector_lanes
    maxpool_output_elems_per_cycle: float | None = None  # MaxPool output stage; None = output_elems_per_cycle
    # dot-product engine: input channels fetched per block (0 = dot_width); a block costs channel_block/dot_width cycles
    channel_block: int = 0
    part_kernel_step: int = 0  # dot-product engine: kernel elements packed per step in kernel-first order (0 = none)
    pool_ops_per_cycle: float | None = None  # pooling kernel-element ops per cycle; None = vector_lanes
    dram_latency_cycles: int = 0  # first-access latency paid once by a layer that reads DRAM
    weight_load_cycles: int = 0  # dot-product engine: minimum cycles per channel block x kernel step (depthwise)
    global_pool_as_depthwise: bool = False  # the compiler lowers GlobalAveragePool/ReduceMean to a depthwise conv
    mul_elems_per_cycle: float | None = None  # elementwise Mul throughput; None = elementwise_elems_per_cycle
    lut_elems_per_cycle: float | None = None  # output stage with a lookup-table activation; None = no such limit
    elementwise_block_bytes: int = 0  # int8 IFM bytes an elementwise block may hold (0 = constant reads not modelled)
    const_burst_bytes: int = 0  # longest burst of the memory holding constants (bytes)
    int32_elems_per_cycle: float | None = None  # elementwise op reading int32 operands (lowered sequences)
    mul32_elems_per_cycle: float | None = None  # int8 Mul writing an int32 result
    graph_inputs_in_dram: bool = False  # graph input tensors stay in DRAM (not in the SRAM the layers use)
    sram_latency_cycles: int = 0  # SRAM read/write latency an op's first IFM / last OFM block pays
    scratch_in_dram: bool = False  # compiler scratch (a lowered MatMul's int32 products) in DRAM, not SRAM
    weight_codec: str = ""  # weight stream encoding ("" = one byte per weight; "ethos-u": npuready.cost.weight_stream)
    shram_banks: int = 0  # Ethos-U SHRAM banks of 1 KiB: block search + pipeline fill/drain of MAC ops (0 = off)
    shram_ifm_granule: int = 0  # SHRAM bank granule of an int8 IFM buffer
    shram_acc_granule: int = 0  # SHRAM bank granule of a 32-bit accumulator buffer
    sram_burst_bytes: int = 0  # longest SRAM burst (bytes; 0 = no burst penalty)
    dram_write_latency_cycles: int = 0  # DRAM write latency an op's last OFM block pays
    pool_min_kernel: int = 0  # a pooling pass takes at least this many kernel-element steps (Ethos-U: 4)
    lowering: str = "none"  # compiler lowering of ops without a kernel (npuready.cost.lowering): none | vela
    reference: Mapping[str, str] = field(default_factory=dict)  # external tool settings a mirror matches
    # --- what the target runs beyond its op table (npuready.lint.policy reads these) ---
    norms: Mapping[str, str] = field(default_factory=dict)  # norm op (a BatchNorm that does not fold) -> RUN_MODES
    norm_axis_max: int | None = None  # largest normalised axis a lowered norm handles (Vela MEAN: < 4096)
    resize: ResizeSupport = field(default_factory=lambda: ResizeSupport({"nearest": "native", "linear": "native",
                                                                         "cubic": "host"}))
    via: Mapping[str, str] = field(default_factory=dict)  # op (or "Resize.linear") -> how the target runs it

    @property
    def macs_per_cycle(self) -> int:
        return self.array_rows * self.array_cols * self.cores * self.dot_width

    @property
    def tops(self) -> float:
        return 2.0 * self.macs_per_cycle * self.clock_mhz * 1e6 / 1e12

    def activation_mode(self, op_type: str) -> str | None:
        """fused / lut / lowered / host for a known activation, None when the op is not an activation."""
        return self.activations.get(op_type)

    def norm_mode(self, op_type: str) -> str:
        """How the target runs a normalisation op (an unfolded BatchNorm for ``BatchNormalization``)."""
        if op_type in self.norms:
            return self.norms[op_type]
        return "native" if op_type in self.supported_ops else "host"

    def runs_on_npu(self, op_type: str) -> bool:
        """Op-level answer from the declarations (node-level, with shapes and patterns: targets.support)."""
        mode = self.activations.get(op_type)
        if mode is not None:
            return mode != "host"
        if op_type in NORM_OPS and op_type != "BatchNormalization":  # a BatchNorm that folds always runs
            return self.norm_mode(op_type) != "host"
        return op_type in self.supported_ops
