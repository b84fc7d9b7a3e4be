"""Compiler lowering: ops a target has no kernel for, rewritten into the op sequence its compiler emits.

``lower(graph, node, target) -> tuple[Step, ...] | None``. A target opts in with ``lowering = "vela"``
(only the Ethos-U mirrors); every other target gets ``None`` and costs the node as one op. Each
``Step`` is an ordinary ``Workload`` plus the op type the cost model prices it as, so a lowered node is
the sum of existing per-op costs (elementwise, pooling, depthwise/weight-load floor): this file holds
the *structure* (which passes, over which tensor sizes), no cycle constants.

Vela's lowering for Ethos-U55/U65 (INT8), on a tensor of ``R`` rows of length ``C`` along the op's axis
(``N = R * C``):

- **Softmax** — the integer softmax of Vela's ``softmax.py`` (``SoftMax.get_graph_8bit``), in the op
  order Vela 5.2.0 reports per layer: a max over ``C`` (MaxPool of the tensor viewed as ``R`` pixels
  of one channel with a 1 x C kernel, ``operation_util.create_depthwise_maxpool``: ``N -> R``);
  ``x - max`` with the exp lookup table applied by that Sub's output stage (``N``); shift right (``N``);
  ReduceSum over ``C`` (``N -> R``); the reciprocal of the row sums on ``R`` elements — count leading
  zeros, 2 Sub, shift left, Mul, Add, then 3 Newton-Raphson steps of (Mul, Sub, Mul, Mul, Add): 21 ops;
  then exp x reciprocal (Mul, ``N``), an Add over ``N`` (5.2.0 reports it where the legacy code has a
  Mul on the row sums) and the final shift right (``N``).
- **LayerNormalization** — the sequence LiteRT's exporter hands Vela (MEAN, SUB, MUL, MEAN, ADD,
  RSQRT, MUL, MUL, ADD) with Vela's own rewrites: each MEAN over ``C`` becomes a depthwise conv + Mul
  (priced by the mirror's global-mean lowering and weight-load floor), RSQRT is a lookup table in the
  preceding Add's output stage; the centring, square, normalise, scale and shift run elementwise over
  ``N`` (mean/variance/reciprocal-sqrt on ``R``); ``scale``/``bias`` are constant operands, read once per
  output element from the constant memory (``npuready.cost.elementwise_block``).
- **HardSigmoid** (declared ``lowered`` in ``[activations]``) — the converter's ``relu6(6αx + 6β) / 6``
  that npuready's int8 export writes: [Mul] + Add with a fused ReLU6 + Mul, elementwise with constant operands.
- **BatchNormalization that does not fold** (it follows a Concat or an add, as in DenseNet) — TFLite's
  per-channel Mul and Add, two elementwise ops each reading its constant operand once per output element.
- **MatMul of two activations** (attention's Q.K^T and P.V; BatchMatMul in TFLite) — the MAC array takes
  only compiler-encoded weight streams, so a product whose second operand is computed at run time is
  done outside it: one elementwise Mul per product (``batch * M * N * K`` elements) and a ReduceSum over
  ``K`` (``-> batch * M * N``). Checked against regor's source (ethos-u-vela 5.2.0 sdist):
  ``GraphIrOptimiser::RewriteMatmul`` (``compiler/graphir_optimiser.cpp``) transposes the second operand,
  and ``EthosU55RCSGenerator::InsertMatMulCommand`` / ``EthosU55Performance::EstimateMatMulCycles``
  (``architecture/ethosu55/``) run, for every output column, a Mul of the first operand by one row of
  the second into an int32 scratch buffer and a ReduceSum of it — the same element counts in total.
  Each of the ``N`` per-column ReduceSums pays its memories' read and write latencies (``_column_latency``).
  Not modelled: that Transpose, the per-column block transfers and the int32 width of the scratch.
- **Conv with a stride above 3** (the Ethos-U55/U65 kernel takes strides 1-3; a ViT patch embedding
  has stride = kernel) — Vela 5.2.0's C++ core (regor, in the ``ethos-u-vela`` 5.2.0 source
  distribution: ``ethosu/regor/compiler/graphir_optimiser.cpp``, ``GraphIrOptimiser::UnrollKernelStrides``)
  replaces the conv by one conv per output pixel (per batch, row, column): each reads a
  kernel-height x kernel-width x all-channels slice of the input, uses the same weights and bias, has
  stride 1 and writes one pixel of all output channels. Each of these ``batch * OH * OW`` convs is
  priced as an ordinary conv (its own weight-load floor, weight stream and DRAM latency). Regor does
  this only when the conv has no padding, dilation 1 and constant weights and bias; a stride on an axis
  whose output is 1 wide counts as 1 (``GraphIrOptimiser::ResetKernelAttributes`` runs first). Any
  other stride > 3 conv is left to scheduler-time decomposition (``scheduler_decompose.cpp``), whose
  stride path needs accumulator save/restore, which the Ethos-U55/U65 lack
  (``architecture/ethosu55/ethos_u55_constraints.hpp``); that case is not modelled here (the conv
  stays one op).
- **Transpose** — on a target that gives ``sram_burst_bytes``: regor's ``DecomposeTranspose`` into native
  3-D axis swaps, each a memory-bound pass whose reads and writes are rounded up to whole SRAM bursts
  (``npuready.cost.transpose``); an identity permutation (up to unit axes) is removed.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from npuready.cost.mac_block import MacOp
from npuready.cost.transpose import swap_transfer_bytes, transpose_swaps
from npuready.cost.workload import BIAS_BYTES, Workload, _is_const, _mac_op, _numel, _shape, conv_weights, hwc, workload
from npuready.targets.gelu_pattern import gelu_members, gelu_span
from npuready.graph import Graph, Node, families
from npuready.graph.hardsigmoid import DEFAULT_ALPHA, scales_input
from npuready.targets import Target

OUTPUT_STAGE_OPS = families.MAC | {"Add", "Sub", "Mul"}
LUT = "LUT"  # a lookup table applied in the previous op's output stage: no pass of its own
SHIFT = "BitShift"  # Vela's ASR/SHL: binary elementwise ops (shift amount is the second operand)
MAX_HW_STRIDE = 3  # larger kernel strides must be decomposed (regor architecture/ethosu55/ethos_u55_constraints.cpp)
RECIPROCAL = ("CLZ", "Sub", "Sub", SHIFT, "Mul", "Add") + ("Mul", "Sub", "Mul", "Mul", "Add") * 3


@dataclass(frozen=True)
class Step:
    op: str  # op type the step is priced as (ONNX-style name; LUT = fused lookup table)
    work: Workload
    vela_op: str  # what Vela calls the op in its per-layer report


def lower(graph: Graph, node: Node, target: Target) -> tuple[Step, ...] | None:
    if target.lowering != "vela" or not node.outputs:
        return None
    if node.op_type == "Softmax":
        return _softmax(graph, node)
    if node.op_type == "LayerNormalization":
        return _layer_norm(graph, node)
    if node.op_type == "BatchNormalization":
        return _batch_norm(graph, node)
    if node.op_type == "HardSigmoid" and target.activation_mode("HardSigmoid") == "lowered":
        return _hard_sigmoid(graph, node)
    if node.op_type in ("MatMul", "MatMulInteger", "QLinearMatMul"):
        return _activation_matmul(graph, node, target)
    if node.op_type == "Conv":
        return _grouped_conv(graph, node) or _unrolled_strided_conv(graph, node)
    if node.op_type == "Transpose":
        return _transpose(graph, node, target)
    return _nop_passes(graph, node, target)


def _nop_pass(elems: int, vela_op: str) -> Step:
    """A 1x1 pooling pass over ``elems`` elements: how an Ethos-U runs a standalone lookup table, a
    rescale (Quantize) or a MemoryCopy (regor ``ArchEthosU55::UseAvgPoolNop``)."""
    return Step("AveragePool", Workload("pool", kernel=1, ofm_elems=elems, ifm_elems=elems), vela_op)


def _nop_passes(graph: Graph, node: Node, target: Target) -> tuple[Step, ...] | None:
    """Ops Vela runs as 1x1 pooling passes: a lookup-table activation that did not fuse (one pass), each
    non-constant Concat input (a Quantize or MemoryCopy into the output), a Slice/Split output
    (StridedSlice -> MemoryCopy) and a Pad (-> MemoryCopy). The members of an exact-GELU pattern are one
    lookup table: in the output stage of the op producing its input when that op has one, else one pass."""
    op = node.op_type
    erf = gelu_members(graph).get(node.name) if target.activation_mode("Gelu") == "lut" else None
    if erf is not None:
        span = gelu_span(graph, erf)
        if span is None or node.name != span[2][-1] or _has_output_stage(graph, span[0]):
            return (_lut("GELU"),)
        return (_nop_pass(_numel(_shape(graph, span[1])), "LUT"),)
    if target.activation_mode(op) == "lut":
        return (_nop_pass(_numel(_shape(graph, node.outputs[0])), "LUT"),)
    if op == "Concat":
        return tuple(_nop_pass(_numel(_shape(graph, i)), "Quantize")
                     for i in node.inputs if i and not _is_const(graph, i))
    if op in ("Slice", "Split"):
        return tuple(_nop_pass(_numel(_shape(graph, o)), "MemoryCopy") for o in node.outputs if o)
    if op == "Pad":
        return (_nop_pass(_numel(_shape(graph, node.outputs[0])), "MemoryCopy"),)
    return None


def _has_output_stage(graph: Graph, tensor: str) -> bool:
    """Is ``tensor`` (through Q/DQ) written by an op with an output stage a lookup table can join?"""
    p = graph.producers.get(tensor)
    while p is not None and p.op_type in ("QuantizeLinear", "DequantizeLinear"):
        p = graph.producers.get(p.inputs[0])
    return p is not None and p.op_type in OUTPUT_STAGE_OPS


def _rows(graph: Graph, node: Node, default_axis: int) -> tuple[int, int] | None:
    """(R, C): rows and row length along the op's axis (the axis must be the innermost one)."""
    x = _shape(graph, node.inputs[0]) if node.inputs else None
    if not x:
        return None
    axis = int(node.attr("axis", default_axis))
    axis = axis + len(x) if axis < 0 else axis
    if axis != len(x) - 1:  # Vela moves the axis innermost with a Transpose first; not modelled
        return None
    c = x[-1]
    return math.prod(x) // c, c


def _ew(op: str, out: int, read: int, vela_op: str = "", const_of: tuple[int, int, int] = (0, 0, 0)) -> Step:
    """An elementwise step; ``const_of`` = the (H, W, C) output of a step whose second operand is a constant."""
    return Step(op, Workload("elementwise", ofm_elems=out, ifm_elems=read, const_reads=1 if any(const_of) else 0,
                             ofm_hwc=const_of), vela_op or op)


def _reduce(op: str, rows: int, c: int, vela_op: str) -> Step:
    return Step(op, Workload("pool", kernel=c, ofm_elems=rows, ifm_elems=rows * c), vela_op)


def _row_max(rows: int, c: int) -> Step:
    """Vela's max over the innermost axis (``create_depthwise_maxpool``): the tensor is viewed as ``rows``
    pixels of ONE channel and pooled with a 1 x C kernel, so ``m`` = rows pixels, ``n`` = 1 channel."""
    return Step("ReduceMax", Workload("pool", m=rows, n=1, kernel=c, ofm_elems=rows, ifm_elems=rows * c), "MaxPool")


def _lut(vela_op: str = LUT) -> Step:
    return Step(LUT, Workload("free"), vela_op)


def _softmax(graph: Graph, node: Node) -> tuple[Step, ...] | None:
    rc = _rows(graph, node, -1)
    if rc is None:
        return None
    r, c = rc
    n = r * c
    return (
        _row_max(r, c),
        _bits(_ew("Sub", n, n + r), 8, 32), _lut(),
        *(_bits(step, 32, 32) for step in (
            _ew(SHIFT, n, n, "Asr"),
            _reduce("ReduceSum", r, c, "ReduceSum"),
            *(_ew(op, r, r, "SHL" if op == SHIFT else op) for op in RECIPROCAL),
            _ew("Mul", n, n + r),
            # both operands broadcast: regor's GraphIrOptimiser::ReplaceBroadcastWithAdd materialises one by
            # adding an OFM-sized int32 zero constant, read from the constant memory once per element
            _ew("Add", n, n, const_of=(1, r, c)))),
        _bits(_ew(SHIFT, n, n, "Asr"), 32, 8),
    )


def _bits(step: Step, ifm_bits: int, ofm_bits: int, store_bits: int = 0) -> Step:
    """``step`` on tensors of other widths: softmax.py's 8-bit graph computes exp, the row sums, the
    reciprocal and the scaled outputs in int32 (its intermediate tensors are DataType.int32)."""
    return dataclasses.replace(step, work=dataclasses.replace(step.work, ifm_bits=ifm_bits, ofm_bits=ofm_bits,
                                                              store_bits=store_bits))


def _layer_norm(graph: Graph, node: Node) -> tuple[Step, ...] | None:
    rc = _rows(graph, node, -1)
    if rc is None:
        return None
    r, c = rc
    n = r * c
    steps = [
        _reduce("ReduceMean", r, c, "DepthwiseConv2D + Mul"),
        _ew("Sub", n, n + r),
        _ew("Mul", n, n),
        _reduce("ReduceMean", r, c, "DepthwiseConv2D + Mul"),
        _ew("Add", r, r), _lut(),
        _ew("Mul", n, n + r),
        _ew("Mul", n, n, const_of=(1, r, c)),
    ]
    if len(node.inputs) > 2 and node.inputs[2]:
        steps.append(_ew("Add", n, n, const_of=(1, r, c)))
    return tuple(steps)


def _batch_norm(graph: Graph, node: Node) -> tuple[Step, ...] | None:
    """A BatchNormalization that does not fold into a conv: TFLite's per-channel Mul by the scale and Add of
    the shift (both constant operands), which Vela runs as two elementwise ops (its per-layer report)."""
    y = _shape(graph, node.outputs[0])
    if not y:
        return None
    n = math.prod(y)
    return (_ew("Mul", n, n, const_of=hwc(y)), _ew("Add", n, n, const_of=hwc(y)))


def _hard_sigmoid(graph: Graph, node: Node) -> tuple[Step, ...] | None:
    """HardSigmoid as npuready's int8 export writes it (``quant.decompose_hardsigmoid``, the sequence a TFLite
    converter emits): [Mul by 6α unless it is 1] + Add of 6β with a fused ReLU6 + Mul by 1/6, each an
    elementwise op with a constant operand, all on the NPU (Vela 5.2.0 places every one: the Vela CPU operators
    ``bitexact-realworld`` and ``vendor-export`` record)."""
    y = _shape(graph, node.outputs[0])
    if not y:
        return None
    n = math.prod(y)
    scale = (_ew("Mul", n, n, const_of=hwc(y)),) if scales_input(node.attr("alpha", DEFAULT_ALPHA)) else ()
    return (*scale, _ew("Add", n, n, const_of=hwc(y)), _ew("Mul", n, n, const_of=hwc(y)))


def _column_latency(target: Target) -> int:
    """Fixed cycles each per-column ReduceSum of a lowered MatMul pays: regor's ``EstimateMatMulCycles``
    repeats a Mul and a ReduceSum for every output column, and ``EstimateMacOpCycles`` adds to each ReduceSum
    (a whole op: scheduling First and Last) its first IFM block's read (``MinimumIfmCycles``: the read latency
    of the memory holding the int32 scratch, plus the block's transfer) and its last OFM block's write
    (``MinimumOfmCycles``: the write latency of SRAM, plus the transfer). Only the two latencies are counted
    (the transfers depend on the block the compiler picks). The scratch lives in the feature-map memory
    (``scheduler_packing.cpp``: ``scratchTensor->memArea = FeatureMapMemory()``): DRAM on a target whose
    arena is in DRAM (``scratch_in_dram``), else SRAM."""
    read = target.dram_latency_cycles if target.scratch_in_dram else target.sram_latency_cycles
    return read + target.sram_latency_cycles


def _activation_matmul(graph: Graph, node: Node, target: Target) -> tuple[Step, ...] | None:
    if len(node.inputs) < 2 or _is_const(graph, node.inputs[1]) or _is_const(graph, node.inputs[0]):
        return None  # a constant operand is a weight stream: the MAC array runs it (FullyConnected)
    a = _shape(graph, node.inputs[0])
    y = _shape(graph, node.outputs[0])
    if not a or not y or len(y) < 2:
        return None
    k = a[-1]
    outputs = math.prod(y)
    products = outputs * k
    b_elems = math.prod(_shape(graph, node.inputs[1]) or (0,))
    return (
        # the Mul writes an int32 scratch (rate: outputCycles[2]); regor's MeasureElementAccess counts the
        # scratch in elements (tmpRead = tmpWrite = ifmRead[0], not turned into bytes), so 1 byte each here
        _bits(_ew("Mul", products, products + b_elems, "MatMul (Mul)"), 8, 32, store_bits=8),
        Step("ReduceSum", Workload("pool", kernel=k, ofm_elems=outputs, ifm_elems=outputs * k,
                                   fixed_cycles=y[-1] * _column_latency(target)), "MatMul (ReduceSum)"),
    )


def _unrolled_strided_conv(graph: Graph, node: Node) -> tuple[Step, ...] | None:
    """Regor's ``UnrollKernelStrides``: one stride-1 conv per output pixel when a stride exceeds 3."""
    x = _shape(graph, node.inputs[0]) if node.inputs else None
    w = _shape(graph, node.inputs[1]) if len(node.inputs) > 1 else None
    y = _shape(graph, node.outputs[0])
    if not x or not w or not y or len(x) != 4 or len(w) != 4 or len(y) != 4:
        return None
    if int(node.attr("group", 1) or 1) != 1:  # depthwise/grouped convs are other Vela ops
        return None
    kh, kw = w[2], w[3]
    strides = list(node.attr("strides", [1, 1]) or [1, 1])
    sh, sw = (int(strides[0]), int(strides[1])) if len(strides) == 2 else (1, 1)
    sh, sw = (1 if y[2] == 1 else sh), (1 if y[3] == 1 else sw)  # ResetKernelAttributes
    if sh <= MAX_HW_STRIDE and sw <= MAX_HW_STRIDE:
        return None
    dilations = [int(d) for d in (node.attr("dilations", [1, 1]) or [1, 1])]
    if any(d != 1 for d in dilations) or _padded(node, x, y, (kh, kw), (sh, sw)):
        return None
    bias = len(node.inputs) > 2 and bool(node.inputs[2])
    if not _is_const(graph, node.inputs[1]) or (bias and not _is_const(graph, node.inputs[2])):
        return None
    batch, cout, oh, ow = y
    cin = x[1]
    weights = math.prod(w) + (BIAS_BYTES * cout if bias else 0)
    window = MacOp("conv", (kh, kw, cin), (1, 1, cout), (kh, kw))  # each step: one kernel window, stride 1
    pixel = Workload("gemm", m=1, k=cin * kh * kw, n=cout, groups=1, kernel=kh * kw, cin_per_group=cin,
                     ofm_elems=cout, ifm_elems=cin * kh * kw, weight_bytes=weights,
                     weights=conv_weights(graph, node, window))
    return tuple(Step("Conv", pixel, "Conv2D") for _ in range(batch * oh * ow))


def _transpose(graph: Graph, node: Node, target: Target) -> tuple[Step, ...] | None:
    """Regor's ``DecomposeTranspose``: one native 3-D swap per step (``npuready.cost.transpose``), each moving
    the bytes its bursts cost (read and write counted as int8 elements of a ``move`` step). Costed on the ONNX
    axis order, as the TFLite Transpose Vela receives when the exporter keeps the tensor in that order."""
    x = _shape(graph, node.inputs[0]) if node.inputs else None
    if not target.sram_burst_bytes or not x:
        return None
    perm = tuple(int(p) for p in (node.attr("perm", None) or range(len(x) - 1, -1, -1)))
    steps = []
    for ifm, swapped in transpose_swaps(x, perm):
        read, write = swap_transfer_bytes(ifm, swapped, target)
        steps.append(Step("Transpose", Workload("move", ofm_elems=write, ifm_elems=read), "Transpose"))
    return tuple(steps) or (Step("Transpose", Workload("free"), "(removed: identity permutation)"),)


def _grouped_conv(graph: Graph, node: Node) -> tuple[Step, ...] | None:
    """Regor's ``ConvertConvolutionGroup``: ``group`` one-group convs plus ``group - 1`` concat copies. Each
    conv streams its own slice of the weights (``npuready.cost.weight_stream``: one stream per conv)."""
    w = workload(graph, node)
    if w.kind != "gemm" or w.groups <= 1 or not w.shapes_known:
        return None
    g = w.groups
    one = dataclasses.replace(w, groups=1, ofm_elems=w.ofm_elems // g, ifm_elems=w.ifm_elems // g,
                              weight_bytes=w.weight_bytes // g)
    x, y = _shape(graph, node.inputs[0]), _shape(graph, node.outputs[0])
    kernel = _shape(graph, node.inputs[1])[2:]
    op = _mac_op(node, "conv", (x[0], x[1] // g, *x[2:]), (y[0], y[1] // g, *y[2:]), kernel) \
        if x and y and len(x) == 4 and len(y) == 4 else None
    weights = conv_weights(graph, node, op)
    convs = tuple(Step("Conv", one if weights is None else dataclasses.replace(
        one, weights=dataclasses.replace(weights, ohwi=weights.ohwi[i * w.n:(i + 1) * w.n])), "Conv2D")
        for i in range(g))
    copy = _ew("Identity", one.ofm_elems, one.ofm_elems, "Quantize")
    return convs + (copy,) * (g - 1)


def _padded(node: Node, x: tuple[int, ...], y: tuple[int, ...], kernel: tuple[int, int],
            strides: tuple[int, int]) -> bool:
    """Does the conv read any padding? Explicit ``pads``, or the padding an ``auto_pad=SAME_*`` implies."""
    auto_pad = node.attr("auto_pad", "NOTSET")
    auto_pad = auto_pad.decode() if isinstance(auto_pad, bytes) else str(auto_pad)
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        return any((o - 1) * s + k > i for i, o, k, s in zip(x[2:], y[2:], kernel, strides))
    if auto_pad == "VALID":
        return False
    return any(int(p) != 0 for p in (node.attr("pads", [0, 0, 0, 0]) or [0, 0, 0, 0]))
