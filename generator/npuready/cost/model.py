"""The analytic per-layer cost model: ``estimate(model, target) -> CostReport`` (all figures simulated).

Per NPU node:

- **compute cycles** — GEMM-like ops on the MAC array (``npuready.cost.gemm``); depthwise convs on the
  depthwise datapath (``ofm * kernel / vector_lanes``) or, without one, on the array one channel at a
  time; pooling/reductions ``ofm * kernel / pool_ops_per_cycle`` (default: vector_lanes); elementwise ops and LUT
  activations ``ofm * passes / lanes`` (``elementwise_elems_per_cycle`` for binary ops when the target gives it);
  ReLU-family activations and BatchNormalization that follow a MAC layer are fused (0 cycles); data
  movement and shape ops cost no compute. A target with an output stage (``output_elems_per_cycle``)
  needs at least ``ofm / output_elems_per_cycle`` cycles per MAC/pool layer. A target with an Ethos-U SHRAM
  (``shram_banks``) instead runs a conv, fully connected, depthwise or pooling layer through the block
  pipeline of ``npuready.cost.mac_block``: the compiler's OFM block, the MAC and output stages overlapped
  block by block, plus the pipeline's fill and drain (first IFM block read, last OFM block write).
- **memory cycles** — weights stream from ``weight_memory`` (as the encoded stream on a target with a
  ``weight_codec``: ``npuready.cost.weight_stream``); activations live in SRAM when the layer's
  input + output fit in ``sram_kib``, otherwise in DRAM. Cycles = max over the two memories of
  bytes / (GB/s / clock).
- **lowered ops** — on a target with ``lowering`` set (the Vela mirrors), an op its compiler has no
  kernel for (Softmax, LayerNormalization, activation x activation MatMul, a Conv with a stride the
  hardware does not take) is the sum of the steps
  ``npuready.cost.lowering`` lists, each costed by the formulas here with its own memory round trip.
- **cycles** = max(compute, memory) + DRAM latency (``dram_latency_cycles``, once per layer that touches
  DRAM: the first access cannot overlap anything); ``bound`` names the larger of compute and memory.
- **energy** = MACs x pJ/MAC + vector ops x pJ/op + SRAM bytes x pJ/B + DRAM bytes x pJ/B.

CPU nodes cost ``host FLOPs / host_gflops`` seconds; each tensor crossing the NPU/host boundary costs
``bytes / host_link_gbps`` (1 byte per element: int8 on the wire).
"""
from __future__ import annotations

import math
import os

from npuready.cost.elementwise_block import constant_read_bytes
from npuready.cost.gemm import GemmMapping, dot_product_cycles, systolic_os_cycles
from npuready.cost.lowering import LUT, Step, lower
from npuready.cost.mac_block import Memory, Shram, pipeline_cycles
from npuready.cost.placement import CPU, FOLDED, NPU, place_nodes
from npuready.cost.report import CostReport, LayerCost, Transfer
from npuready.cost.weight_stream import ETHOS_U_CODEC, encoded_layer_bytes
from npuready.cost.workload import HOST_FLOPS, Workload, workload
from npuready.graph import Graph, Node, families, load
from npuready.graph.shape_summary import shape_summary
from npuready.graph.unresolved import require_pinned
from npuready.targets import DEFAULT_TARGET, Target, load_target

BINARY_OPS = families.ELEMENTWISE_BINARY
FUSED = "fused into the producing layer"
GLOBAL_MEAN_OPS = frozenset({"GlobalAveragePool", "ReduceMean"})
#: producers whose output stage absorbs a following activation or BatchNormalization (``_fused``)
FUSING_PRODUCERS = families.MAC | {"BatchNormalization", "Add"}
DW_KERNEL_STEP = 4  # kernel elements a dot-product engine's depthwise mode consumes per step (Ethos-U: 4)


def estimate(model: "str | os.PathLike | Graph", target: "str | Target" = DEFAULT_TARGET, edges: str = "npu",
             progress=None, placement=None) -> CostReport:
    """Cost every node of ``model`` on ``target`` with the partition planner's placement under the ``edges``
    policy ("npu" or "cpu": post-processing after the last MAC op on the host). Raises ``InputError`` when a
    graph input's dims are not pinned (load the graph with ``pins``; ``npuready.graph.unresolved``).
    ``placement`` hands over a decided placement (the partition plan of this graph, target and edges policy,
    or a lint run's placements; ``npuready.analysis``) instead of linting and placing again.
    ``progress(nodes, description)`` may wrap the node loop (a progress bar: encoding a large model's weights
    for an Ethos-U mirror takes seconds)."""
    graph = load(model)
    require_pinned(graph, "the cost model")
    tgt = load_target(target)
    placed = place_nodes(graph, tgt, edges, placement)
    layers = []
    for node in (progress(graph.nodes, f"costing on {tgt.name}") if progress else graph.nodes):
        device = placed.devices.get(node.name, NPU)
        layers.append(layer_cost(graph, node, tgt, device))
    transfers = []
    for name, direction in placed.crossings:
        info = graph.info(name)
        nbytes = info.numel or 0  # int8 activations: one byte per element
        transfers.append(Transfer(name, direction, nbytes, nbytes / (tgt.host_link_gbps * 1e9), elements=nbytes,
                                  export_dtype=info.dtype, export_bytes=info.nbytes))
    notes = []
    if graph.inference_error:
        notes.append(f"shape inference failed ({graph.inference_error}); layers with unknown shapes cost 0")
    unknown = [lc.node for lc in layers if lc.note == "shapes unknown"]
    if unknown:
        notes.append(f"{len(unknown)} node(s) with unknown shapes cost 0: {', '.join(unknown[:5])}")
    label = str(graph.path) if graph.path else graph.name
    return CostReport(label, tgt.name, tgt.clock_mhz, tgt.macs_per_cycle, tuple(layers), tuple(transfers),
                      placed.source, tuple(notes), shape_summary(graph))


def _fused(graph: Graph, node: Node) -> bool:
    """An activation/BN whose input comes (through Q/DQ) from a Conv/Gemm/MatMul used only by it."""
    name = node.inputs[0] if node.inputs else ""
    for _ in range(4):
        p = graph.producers.get(name)
        if p is None:
            return False
        if p.op_type in ("QuantizeLinear", "DequantizeLinear"):
            name = p.inputs[0]
            continue
        if p.op_type in FUSING_PRODUCERS:
            return len(graph.consumers.get(name, ())) == 1
        return False
    return False


def gemm_mapping(w: Workload, t: Target) -> GemmMapping:
    if t.engine == "dot-product":
        return dot_product_cycles(w.m, w.n, w.kernel, w.cin_per_group, t.array_rows, t.array_cols,
                                  t.dot_width, t.cores, w.groups, t.channel_block,
                                  t.part_kernel_step, t.weight_load_cycles, ublock_tiles(w, t))
    return systolic_os_cycles(w.m, w.k, w.n, t.array_rows, t.array_cols, t.cores, w.groups)


def _compute(graph: Graph, node: Node, w: Workload, t: Target) -> tuple[int, GemmMapping | None, str]:
    if w.kind == "elementwise":
        mode = t.activation_mode(node.op_type)
        if (mode == "fused" or w.fusable) and _fused(graph, node):
            return 0, None, FUSED
    return op_compute(node.op_type, w, t)


def op_compute(op: str, w: Workload, t: Target) -> tuple[int, GemmMapping | None, str]:
    """Compute cycles of one op of type ``op`` with workload ``w`` (also used for each lowered step)."""
    if w.kind == "gemm" or (w.kind == "depthwise" and not t.depthwise_engine):
        mapping = gemm_mapping(w, t)
        return _mac_stage(mapping.cycles, w, t), mapping, ""
    if w.kind == "depthwise":
        return _mac_stage(_depthwise_cycles(w, t), w, t), None, "depthwise datapath"
    if w.kind == "pool":
        if t.global_pool_as_depthwise and op in GLOBAL_MEAN_OPS:
            return _with_output_stage(_depthwise_cycles(w, t), w, t), None, "lowered to a depthwise conv"
        kernel = max(w.kernel, t.pool_min_kernel)  # regor: max(4, sub-kernel elements) steps per micro-block
        cycles = math.ceil(_pool_lanes(w, t) * kernel / (t.pool_ops_per_cycle or t.vector_lanes))
        rate = t.maxpool_output_elems_per_cycle if op == "MaxPool" else None
        return _mac_stage(cycles, w, t, rate), None, ""
    if w.kind == "elementwise":
        rate = t.vector_lanes
        if op in BINARY_OPS and t.elementwise_elems_per_cycle:
            rate = t.elementwise_elems_per_cycle
        if op == "Mul" and t.mul_elems_per_cycle:
            rate = t.mul_elems_per_cycle
        if w.ifm_bits == 32 and t.int32_elems_per_cycle:  # regor EstimateAOCyclesPerElement: outputCycles[1]
            rate = t.int32_elems_per_cycle
        elif op == "Mul" and w.ofm_bits == 32 and t.mul32_elems_per_cycle:  # outputCycles[2]
            rate = t.mul32_elems_per_cycle
        if t.activation_mode(op) == "lut":
            return math.ceil(w.ofm_elems * w.ops / _lut_rate(rate, t)), None, "lookup table"
        return math.ceil(w.ofm_elems * w.ops / rate), None, ""
    return 0, None, ""


def _lut_rate(rate: float, t: Target) -> float:
    """Elements per cycle of an output stage that applies a lookup table: Vela's AO cycles per element are
    the larger of the op's output cost and the activation's (regor ``EthosU55Performance::
    EstimateAOCyclesPerElement``; ``activationCycles[0]`` for Sigmoid/Tanh/LUT), so the slower rate wins."""
    return min(rate, t.lut_elems_per_cycle) if t.lut_elems_per_cycle else rate


def _depthwise_cycles(w: Workload, t: Target) -> int:
    """Depthwise/pooling datapath. Vector targets: ``ofm * kernel / lanes``. A dot-product engine
    works on micro-blocks of ``rows`` pixels x ``cols`` channels, ``DW_KERNEL_STEP`` kernel elements at
    a time, and must (re)load the weights of each channel block and kernel step, which takes at least
    ``weight_load_cycles``: ``ceil(C/cols) * ceil(kernel/step) * max(weight_load, step * ceil(P/rows))``.
    With few output pixels (global pooling) the weight load, not the MACs, sets the time."""
    if t.engine != "dot-product":
        return math.ceil(w.ofm_elems * w.kernel / t.vector_lanes)
    pixels = max(1, w.m) if w.kind == "depthwise" else 1
    channels = max(1, w.ofm_elems // pixels)
    tiles = (ublock_tiles(w, t) if w.kind == "depthwise" else 0) or math.ceil(pixels / t.array_rows)
    per_step = max(t.weight_load_cycles, DW_KERNEL_STEP * tiles)
    return math.ceil(channels / t.array_cols) * math.ceil(w.kernel / DW_KERNEL_STEP) * per_step


def _pool_lanes(w: Workload, t: Target) -> int:
    """Output elements a pooling pass occupies. When the workload states its channel count (``n``; the
    lowered softmax max does) a dot-product engine pads the channels to its micro-block width
    (``array_cols``): a 1-channel tensor leaves the other lanes idle; its pixels form an H x 1 column, so
    each micro-block row of ``uw`` pixels holds one (regor EstimateMacCyclesPerBlock counts
    ``DivRoundUp(ofmBlock, ofmUBlock)``; Vela's debug database shows the [rows, 1, 1] output). ONNX pooling
    nodes leave ``n`` 0."""
    if t.engine != "dot-product" or not w.n or not w.m:
        return w.ofm_elems
    uh, uw, uc = ublock(t)  # the m pixels stand in one column (H = m, W = 1): a micro-block row is uw wide
    return math.ceil(w.m / uh) * uh * uw * math.ceil(w.n / uc) * uc


def _mac_stage(cycles: int, w: Workload, t: Target, output_rate: float | None = None) -> int:
    """A MAC op's cycles: on a target with an Ethos-U SHRAM (``shram_banks``) and a known block geometry, the
    block pipeline with its fill and drain (``npuready.cost.mac_block``); otherwise the slower of the MAC stage
    and the output stage. ``output_rate`` replaces ``output_elems_per_cycle`` for an op whose output stage
    runs at its own rate (MaxPool: regor ``EstimateAOCyclesPerElement`` selects ``outputCycles[6]``)."""
    rate = output_rate or t.output_elems_per_cycle
    if not (t.shram_banks and w.mac_op and rate and t.engine == "dot-product"):
        return _with_output_stage(cycles, w, t, rate)
    ifm_mem, ofm_mem = _block_memories(w, t)
    return pipeline_cycles(cycles, 1 / rate, w.mac_op, ublock(t), shram(t), ifm_mem, ofm_mem)


def _block_memories(w: Workload, t: Target) -> tuple[Memory, Memory]:
    """Where a MAC op's first IFM block is read from and its last OFM block written to: a graph input or output
    in plain NHWC, in DRAM when the target keeps the graph's tensors there (``graph_inputs_in_dram``), other
    feature maps in the NHCWB16 brick format, in SRAM when the layer's tensors fit (as ``_memory`` decides)."""
    hz = t.clock_mhz * 1e6
    sram_rate = (t.sram_gbps or t.dram_gbps) * 1e9 / hz
    dram_rate = t.dram_gbps * 1e9 / hz
    acts = (w.ifm_elems * w.ifm_bits + w.ofm_elems * (w.store_bits or w.ofm_bits)) // 8
    in_sram = acts <= t.sram_kib * 1024
    sram_burst, dram_burst = t.sram_burst_bytes, t.const_burst_bytes

    def memory(graph_tensor: bool, latency: int) -> Memory:
        if (graph_tensor and t.graph_inputs_in_dram) or (not graph_tensor and not in_sram):
            return Memory(latency, dram_rate, dram_burst, nhwc=graph_tensor)
        return Memory(t.sram_latency_cycles, sram_rate, sram_burst, nhwc=graph_tensor)

    return (memory(bool(w.graph_input_elems), t.dram_latency_cycles),
            memory(w.writes_graph_output, t.dram_write_latency_cycles))


def _with_output_stage(cycles: int, w: Workload, t: Target, rate: float | None = None) -> int:
    rate = rate or t.output_elems_per_cycle
    if rate:
        return max(cycles, math.ceil(w.ofm_elems / rate))
    return cycles


def _memory(w: Workload, t: Target) -> tuple[int, int, int]:
    """(memory cycles, SRAM bytes, DRAM bytes) of one NPU layer."""
    if w.kind == "free":
        return 0, 0, 0
    from_input = w.graph_input_elems if t.graph_inputs_in_dram else 0
    acts = ((w.ifm_elems - from_input) * w.ifm_bits + w.ofm_elems * (w.store_bits or w.ofm_bits)) // 8  # bytes
    fits = acts <= t.sram_kib * 1024
    consts = streamed_weight_bytes(w, t) + const_operand_bytes(w, t)
    sram = (acts if fits else 0) + (consts if t.weight_memory == "sram" else 0)
    dram = (0 if fits else acts) + (consts if t.weight_memory == "dram" else 0) + graph_input_bytes(w, t)
    hz = t.clock_mhz * 1e6
    dram_cycles = dram / (t.dram_gbps * 1e9 / hz)
    sram_cycles = sram / (t.sram_gbps * 1e9 / hz) if t.sram_gbps else 0.0
    return math.ceil(max(dram_cycles, sram_cycles)), sram, dram


def streamed_weight_bytes(w: Workload, t: Target) -> int:
    """Weight bytes a layer streams: one per int8 weight plus its int32 biases, or on a target with an Ethos-U
    weight codec (``weight_codec = "ethos-u"``) the encoded stream and scale records Vela writes for the layer
    (``npuready.cost.weight_stream``), which Vela's performance model charges (regor
    ``EthosU55Performance::ElementTransferToBytes``: ``encodedWeightSize``, ``encodedScaleSize``)."""
    if t.weight_codec == ETHOS_U_CODEC and w.weights is not None and t.cores == 1:
        return encoded_layer_bytes(w.weights, ublock(t), shram(t))
    return w.weight_bytes


def const_operand_bytes(w: Workload, t: Target) -> int:
    """Bytes an elementwise op moves to read its non-scalar constant operands (``const_reads``) on a target
    with ``elementwise_block_bytes`` and ``const_burst_bytes`` set: each operand is read once per output
    element, broadcast or not, in bursts as long as the compiler's block depth
    (``npuready.cost.elementwise_block``, from regor's FindBlockConfig / EstimateMemoryTransfer)."""
    if not (t.elementwise_block_bytes and t.const_burst_bytes) or w.kind != "elementwise" or not w.const_reads:
        return 0
    per_operand = constant_read_bytes(w.ofm_hwc, w.ofm_hwc[2], ublock(t), t.elementwise_block_bytes,
                                      t.const_burst_bytes, w.ifm_bits // 8)
    return w.const_reads * per_operand


def graph_input_bytes(w: Workload, t: Target) -> int:
    """Bytes moved to read a graph input that stays in DRAM (``graph_inputs_in_dram``: Vela's Dedicated_Sram
    mode keeps the graph's input tensors in the DRAM arena, the SRAM is only a cache for intermediates).
    An NHWC read whose channel stride is not the IFM block depth bursts one block depth at a time
    (regor EstimateMemoryTransfer), the depth being ``roundup(min(C, 32), 8)`` (FindBlockConfig's
    ``ifmBlockDepth`` for int8): a 3-channel image moves 128 / 8 = 16 bytes per element."""
    if not (t.graph_inputs_in_dram and w.graph_input_elems and t.const_burst_bytes):
        return 0
    c = w.graph_input_channels
    depth = -(-min(c, 32) // 8) * 8
    burst = t.const_burst_bytes if c == depth else depth
    return w.graph_input_elems * t.const_burst_bytes // min(t.const_burst_bytes, burst)


def ublock_tiles(w: Workload, t: Target) -> int:
    """Micro-blocks covering a conv's output pixels when the workload knows its height and width: regor
    (ethos-u-vela 5.2.0) EstimateMacCyclesPerBlock counts ``DivRoundUp(ofmBlock, ofmUBlock).ElementsWH()``,
    so a 7 x 7 output on 2 x 2 micro-blocks takes 16 of them, not 49 / 4. 0 = unknown (use M / rows)."""
    h, wd, _ = w.ofm_hwc
    if not h or t.engine != "dot-product":
        return 0
    uh, uw, _ = ublock(t)
    return math.ceil(h / uh) * math.ceil(wd / uw)


def ublock(t: Target) -> tuple[int, int, int]:
    """The OFM micro-block (H, W, C) of a dot-product engine: ``array_rows`` pixels, 2 wide when it has more
    than one (Ethos-U55-128 1 x 2 x 8, Ethos-U65-256 2 x 2 x 8: architecture_features.py ``ofm_ublock``)."""
    width = min(2, t.array_rows)
    return (t.array_rows // width, width, t.array_cols)


def shram(t: Target) -> Shram:
    """The SHRAM of an Ethos-U target (banks and bank granules from its file)."""
    return Shram(t.shram_banks, t.shram_ifm_granule, t.shram_acc_granule)


def layer_cost(graph: Graph, node: Node, t: Target, device: str) -> LayerCost:
    w = workload(graph, node)
    note = "" if w.shapes_known else "shapes unknown"
    if device == FOLDED or (device == NPU and w.kind == "free"):
        return LayerCost(node.name, node.op_type, device, "free", 0, 0, 0, 1, 0, 0, 0, 0, 0, "none", 0.0, 0, 0, 0.0,
                         note=note or ("folded: known before inference" if device == FOLDED else ""))
    if device == CPU:
        flops = w.host_flops * (HOST_FLOPS.get(node.op_type, 1) if w.kind not in ("gemm", "depthwise") else 1)
        seconds = flops / (t.host_gflops * 1e9)
        cycles = round(seconds * t.clock_mhz * 1e6)
        return LayerCost(node.name, node.op_type, CPU, "host", w.m, w.k, w.n, w.groups, 0, w.macs, 0, 0, cycles,
                         "host", 0.0, 0, 0, 0.0, host_s=seconds,
                         note=note or f"host fallback: {flops} FLOPs at {t.host_gflops:g} GFLOP/s")
    compute, mapping, how = _compute(graph, node, w, t)
    if how == FUSED:  # runs inside the producer's output stage: no pass of its own, no memory traffic
        return LayerCost(node.name, node.op_type, NPU, "fused", 0, 0, 0, 1, 0, 0, 0, 0, 0, "none", 0.0, 0, 0, 0.0,
                         note=FUSED)
    steps = lower(graph, node, t)
    if steps is not None:
        return _lowered_cost(node, w, steps, t, note)
    memory, sram, dram = _memory(w, t)
    latency = t.dram_latency_cycles if dram else 0  # first DRAM access: a prologue nothing overlaps
    cycles = max(compute, memory) + latency
    bound = "none" if cycles == 0 else ("compute" if compute >= memory else "memory")
    util = w.macs / (cycles * t.macs_per_cycle) if cycles and w.macs else 0.0
    vector_ops = w.vector_ops + (w.macs if w.kind == "depthwise" and t.depthwise_engine else 0)
    mac_ops = w.macs if not (w.kind == "depthwise" and t.depthwise_engine) else 0
    energy_pj = _energy_pj(t, mac_ops, vector_ops, sram, dram)
    tiles = mapping.tiles if mapping else 0
    return LayerCost(node.name, node.op_type, NPU, w.kind, w.m, w.k, w.n, w.groups, tiles, w.macs, compute, memory,
                     cycles, bound, util, sram, dram, energy_pj / 1e6, note=note or how)


def _lowered_cost(node: Node, w: Workload, steps: tuple[Step, ...], t: Target, note: str) -> LayerCost:
    """A node the target's compiler lowers (``npuready.cost.lowering``): the sum of its steps, each an
    ordinary op with its own compute, memory round trip and DRAM latency. ``bound`` names the larger sum."""
    compute = memory = cycles = sram = dram = vector_ops = mac_ops = 0
    for i, step in enumerate(steps):
        c, _, _ = op_compute(step.op, step.work, t)
        if i + 1 < len(steps) and steps[i + 1].op == LUT and step.work.kind == "elementwise":
            c = max(c, math.ceil(step.work.ofm_elems / _lut_rate(math.inf, t)))  # the LUT runs in this output stage
        m, s_bytes, d_bytes = _memory(step.work, t)
        compute, memory, sram, dram = compute + c, memory + m, sram + s_bytes, dram + d_bytes
        cycles += max(c, m) + (t.dram_latency_cycles if d_bytes else 0) + step.work.fixed_cycles
        vector_ops += step.work.vector_ops
        mac_ops += step.work.macs if step.work.kind == "gemm" else 0  # MAC-array steps (unrolled convs)
    bound = "none" if cycles == 0 else ("compute" if compute >= memory else "memory")
    energy_pj = _energy_pj(t, mac_ops, vector_ops, sram, dram)
    util = mac_ops / (cycles * t.macs_per_cycle) if cycles and mac_ops else 0.0
    passes = sum(1 for step in steps if step.work.kind != "free")
    how = f"lowered ({t.lowering}): {passes} NPU ops + {len(steps) - passes} fused lookup table(s)"
    return LayerCost(node.name, node.op_type, NPU, w.kind, w.m, w.k, w.n, w.groups, 0, w.macs, compute, memory,
                     cycles, bound, util, sram, dram, energy_pj / 1e6, note=note or how)


def _energy_pj(t: Target, mac_ops: int, vector_ops: int, sram: int, dram: int) -> float:
    """MACs x pJ/MAC + vector ops x pJ/op + SRAM bytes x pJ/B + DRAM bytes x pJ/B."""
    e = t.energy
    return (mac_ops * e["pj_per_mac"] + vector_ops * e["pj_per_vector_op"]
            + sram * e["pj_per_sram_byte"] + dram * e["pj_per_dram_byte"])
