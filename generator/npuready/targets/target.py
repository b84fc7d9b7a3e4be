"""The NPU target description shared by lint, partition and cost (frozen, validated)."""
from __future__ import annotations

from dataclasses import MISSING, dataclass, field
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


def knob(default=MISSING, *, doc: str, group: str | None = None, positive: bool = False, unit: str = "",
         section: str = "core"):
    """A target field with its schema: the data file's validation (``npuready.targets.load``), the [sources]
    group that must say where its number comes from, and the field table of ``docs/targets.md`` all read this
    metadata, so a new field is declared here once. ``section`` "ethos-u" marks knobs only the Ethos-U
    mirrors set (their defaults switch the mechanism off)."""
    meta = {"doc": doc, "group": group, "positive": positive, "unit": unit, "section": section}
    return field(metadata=meta) if default is MISSING else field(default=default, metadata=meta)


# The [sources] groups a target file must fill, in the order a missing one is named.
SOURCE_GROUPS = ("array", "memory", "vector", "host", "energy", "activations")


@dataclass(frozen=True)
class Target:
    """One NPU target. Numbers come from the target's data file; ``sources`` says where each comes from.
    Each field's schema (type, unit, source group, doc) is declared with it (``knob``)."""

    name: str = knob(doc="the data file's stem")
    title: str = knob(doc="one-line title")
    kind: str = knob(doc="virtual (a design assumption) or mirror (copies an external tool's configuration)")
    description: str = knob(doc="what the target is and where its numbers come from")
    array_rows: int = knob(doc="MAC array rows", group="array", positive=True)
    array_cols: int = knob(doc="MAC array columns", group="array", positive=True)
    cores: int = knob(doc="NPU cores", group="array", positive=True)
    clock_mhz: float = knob(doc="NPU clock", group="array", positive=True, unit="MHz")
    sram_kib: int = knob(doc="on-chip SRAM", group="memory", positive=True, unit="KiB")
    dram_gbps: float = knob(doc="off-chip (DRAM / flash) bandwidth", group="memory", positive=True, unit="GB/s")
    vector_lanes: int = knob(doc="vector unit lanes (elementwise, pooling)", group="vector", positive=True)
    depthwise_engine: bool = knob(doc="depthwise convolutions run on a dedicated engine", group="vector")
    activations: Mapping[str, str] = knob(doc="op_type -> fused | lut | lowered | host", group="activations")
    supported_ops: frozenset[str] = knob(doc="the op table lint and the partition planner read")
    energy: Mapping[str, float] = knob(doc="pJ per MAC / SRAM byte / DRAM byte / vector op", group="energy")
    host_gflops: float = knob(doc="host CPU throughput for CPU-placed nodes", group="host", positive=True,
                              unit="GFLOP/s")
    host_link_gbps: float = knob(doc="host <-> NPU link bandwidth for boundary tensors", group="host",
                                 positive=True, unit="GB/s")
    sources: Mapping[str, str] = field(default_factory=dict)
    extra: Mapping[str, object] = field(default_factory=dict)
    # --- cost-model fields (optional in the data file; defaults describe a plain systolic array) ---
    engine: str = knob("systolic-os", group="array",
                       doc="how the MAC array consumes a GEMM: systolic-os (rows x cols PEs, K streamed one step "
                           "per cycle) or dot-product")
    dot_width: int = knob(1, group="array", positive=True, doc="K elements one PE reduces per cycle")
    sram_gbps: float | None = knob(None, group="memory", positive=True, unit="GB/s",
                                   doc="on-chip bandwidth; unset = never the bottleneck")
    weight_memory: str = knob("dram", group="memory", doc="where weights stream from: dram (off-chip / flash) or sram")
    output_elems_per_cycle: float | None = knob(None, group="vector", positive=True, unit="elements/cycle",
                                                doc="GEMM output stage throughput; unset = inside the array formula")
    elementwise_elems_per_cycle: float | None = knob(None, group="vector", positive=True, unit="elements/cycle",
                                                     doc="binary elementwise throughput; unset = vector lanes")
    maxpool_output_elems_per_cycle: float | None = knob(None, group="vector", positive=True, unit="elements/cycle",
                                                        section="ethos-u",
                                                        doc="MaxPool output stage; unset = the GEMM output stage")
    channel_block: int = knob(0, group="array", positive=True,
                              doc="dot-product engine: input channels fetched per block (0 = dot width); a block "
                                  "costs channel_block / dot_width cycles")
    part_kernel_step: int = knob(0, group="array", section="ethos-u",
                                 doc="dot-product engine: kernel elements packed per step in kernel-first order "
                                     "(0 = none)")
    pool_ops_per_cycle: float | None = knob(None, group="vector", positive=True, unit="kernel-element ops/cycle",
                                            doc="pooling throughput; unset = vector lanes")
    dram_latency_cycles: int = knob(0, group="memory", unit="cycles",
                                    doc="first-access latency paid once by a layer that reads DRAM")
    weight_load_cycles: int = knob(0, group="vector", unit="cycles", section="ethos-u",
                                   doc="dot-product engine: minimum cycles per channel block x kernel step "
                                       "(depthwise)")
    global_pool_as_depthwise: bool = knob(False, group="vector", section="ethos-u",
                                          doc="the compiler lowers GlobalAveragePool/ReduceMean to a depthwise conv")
    mul_elems_per_cycle: float | None = knob(None, group="vector", positive=True, unit="elements/cycle",
                                             doc="elementwise Mul throughput; unset = the elementwise rate")
    lut_elems_per_cycle: float | None = knob(None, group="vector", positive=True, unit="elements/cycle",
                                             section="ethos-u",
                                             doc="output stage with a lookup-table activation; unset = no such limit")
    elementwise_block_bytes: int = knob(0, group="memory", positive=True, unit="bytes", section="ethos-u",
                                        doc="int8 IFM bytes an elementwise block may hold (0 = constant reads not "
                                            "modelled)")
    const_burst_bytes: int = knob(0, group="memory", positive=True, unit="bytes", section="ethos-u",
                                  doc="longest burst of the memory holding constants")
    int32_elems_per_cycle: float | None = knob(None, group="vector", positive=True, unit="elements/cycle",
                                               section="ethos-u",
                                               doc="elementwise op reading int32 operands (lowered sequences)")
    mul32_elems_per_cycle: float | None = knob(None, group="vector", positive=True, unit="elements/cycle",
                                               section="ethos-u", doc="int8 Mul writing an int32 result")
    graph_inputs_in_dram: bool = knob(False, group="memory", section="ethos-u",
                                      doc="graph input tensors stay in DRAM (not in the SRAM the layers use)")
    sram_latency_cycles: int = knob(0, group="memory", unit="cycles", section="ethos-u",
                                    doc="SRAM read/write latency an op's first IFM / last OFM block pays")
    scratch_in_dram: bool = knob(False, group="memory", section="ethos-u",
                                 doc="compiler scratch (a lowered MatMul's int32 products) in DRAM, not SRAM")
    weight_codec: str = knob("", group="memory", section="ethos-u",
                             doc="weight stream encoding: empty = one byte per weight; ethos-u = Vela's encoder "
                                 "(npuready.cost.weight_stream)")
    shram_banks: int = knob(0, group="array", positive=True, section="ethos-u",
                            doc="Ethos-U SHRAM banks of 1 KiB: block search and pipeline fill/drain of MAC ops "
                                "(0 = off)")
    shram_ifm_granule: int = knob(0, group="array", positive=True, section="ethos-u",
                                  doc="SHRAM bank granule of an int8 IFM buffer")
    shram_acc_granule: int = knob(0, group="array", positive=True, section="ethos-u",
                                  doc="SHRAM bank granule of a 32-bit accumulator buffer")
    sram_burst_bytes: int = knob(0, group="memory", positive=True, unit="bytes", section="ethos-u",
                                 doc="longest SRAM burst (0 = no burst penalty)")
    dram_write_latency_cycles: int = knob(0, group="memory", unit="cycles", section="ethos-u",
                                          doc="DRAM write latency an op's last OFM block pays")
    pool_min_kernel: int = knob(0, group="vector", positive=True, section="ethos-u",
                                doc="a pooling pass takes at least this many kernel-element steps")
    lowering: str = knob("none", group="vector", section="ethos-u",
                         doc="compiler lowering of ops without a kernel (npuready.cost.lowering): none | vela")
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
