"""What one ONNX node asks of an NPU: its kind of work and the sizes the cost formulas need.

``workload(graph, node)`` reads static shapes; the only tensor values it keeps are a MAC layer's constant
weights (``weights``: how many bytes a weight codec makes of them depends on their values,
``npuready.cost.weight_stream``). Kinds:

- ``gemm``        Conv (group == 1 or grouped), ConvTranspose, Gemm, MatMul: ``groups`` GEMMs of
                  M x K x N (M = output pixels, K = Cin/group * kernel, N = Cout/group).
- ``depthwise``   Conv with one input channel per group: per channel a K = kernel GEMM with N = multiplier.
- ``pool``        Max/Average/Global pooling and Reduce*: ``kernel`` input elements per output element.
- ``elementwise`` binary/unary arithmetic, standalone activations, BatchNormalization (``ops`` passes
                  per output element).
- ``move``        data movement only (Concat, Split, Slice, Transpose, Pad, Resize, Gather...).
- ``free``        no work: shape-only ops, Q/DQ (folded into the int8 layers), Constant, Identity.

Activations that can fuse into the producing MAC layer are marked ``fusable``; the model decides with
the target whether they cost anything. Element sizes are for the INT8 NPU datapath (1 byte per
activation/weight element, int32 bias) whatever the ONNX dtype is: a float model is costed as the INT8
model it would become.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import numpy as np

from npuready.cost.mac_block import MacOp
from npuready.cost.weight_stream import LayerWeights
from npuready.graph import Graph, Node

FREE_OPS = frozenset({
    "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "QuantizeLinear", "DequantizeLinear",
    "DynamicQuantizeLinear", "Constant", "Shape", "Size", "Dropout", "ConstantOfShape", "Cast",
})
MOVE_OPS = frozenset({
    "Concat", "Split", "Slice", "Transpose", "Pad", "Resize", "Upsample", "Gather", "Tile", "Expand",
    "DepthToSpace", "SpaceToDepth", "GatherElements", "ScatterND", "Where",
})
POOL_OPS = frozenset({
    "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "LpPool", "ReduceMean", "ReduceSum",
    "ReduceMax", "ReduceMin", "ReduceL2", "ArgMax", "ArgMin",
})
FUSABLE_OPS = frozenset({"Relu", "Clip", "LeakyRelu", "PRelu", "BatchNormalization"})
# vector passes per output element for ops that are more than one pass (everything else: 1)
VECTOR_PASSES = {
    "Softmax": 5, "LogSoftmax": 6, "LayerNormalization": 6, "InstanceNormalization": 6,
    "GroupNormalization": 6, "BatchNormalization": 2, "HardSwish": 2, "Mish": 3, "Gelu": 2,
}
# host FLOPs per output element for non-GEMM ops (transcendentals are several flops)
HOST_FLOPS = {"Softmax": 8, "LogSoftmax": 9, "LayerNormalization": 9, "Gelu": 12, "Erf": 10, "Sigmoid": 4,
              "Tanh": 6, "Exp": 4, "Mish": 14, "HardSwish": 4, "Softplus": 6, "Elu": 4, "Selu": 5}
BINARY_CONST_OPS = frozenset({"Add", "Sub", "Mul", "Div", "Max", "Min", "Pow", "PRelu"})
BIAS_BYTES = 4  # int32 bias per output channel


@dataclass(frozen=True)
class Workload:
    kind: str  # gemm | depthwise | pool | elementwise | move | free
    m: int = 0  # GEMM rows (output pixels)
    k: int = 0  # GEMM reduction length per group
    n: int = 0  # GEMM columns per group (output channels)
    groups: int = 1
    kernel: int = 1  # kernel elements (kh*kw) of conv/depthwise/pool
    cin_per_group: int = 0  # input channels per group (dot-product engines step over them)
    ofm_elems: int = 0
    ifm_elems: int = 0  # activation elements read (constants excluded)
    weight_bytes: int = 0  # int8 weights + int32 bias
    ops: int = 1  # vector passes per output element
    const_reads: int = 0  # non-scalar constant operands an elementwise op reads once per output element
    ofm_hwc: tuple[int, int, int] = (0, 0, 0)  # the output as the NHWC (H, W, C) an Ethos-U compiler sees
    ifm_bits: int = 8  # element width of the activations read (int32 inside lowered sequences)
    ofm_bits: int = 8  # element width of the output
    store_bits: int = 0  # bits per output element the memory traffic counts (0 = ofm_bits)
    fixed_cycles: int = 0  # cycles the op pays beyond compute and memory (per-op prologue/epilogue latencies)
    graph_input_elems: int = 0  # activation elements read straight from a graph input
    graph_input_channels: int = 0  # innermost (NHWC channel) length of that input
    writes_graph_output: bool = False  # the output is a graph output
    mac_op: MacOp | None = None  # the op as an Ethos-U block search sees it (conv, FC, depthwise, pooling)
    weights: LayerWeights | None = field(default=None, compare=False, repr=False)  # constant weights, when known
    fusable: bool = False
    shapes_known: bool = True

    @property
    def macs(self) -> int:
        if self.kind in ("gemm", "depthwise"):
            return self.groups * self.m * self.k * self.n
        return 0

    @property
    def vector_ops(self) -> int:
        if self.kind == "pool":
            return self.ofm_elems * self.kernel
        if self.kind == "elementwise":
            return self.ofm_elems * self.ops
        return 0

    @property
    def host_flops(self) -> int:
        if self.kind in ("gemm", "depthwise"):
            return 2 * self.macs
        return max(self.vector_ops, self.ofm_elems)


def _shape(graph: Graph, name: str) -> tuple[int, ...] | None:
    info = graph.tensors.get(name) if name else None
    return tuple(int(d) for d in info.shape) if info is not None and info.is_static else None


def _numel(shape: tuple[int, ...] | None) -> int:
    return math.prod(shape) if shape is not None else 0


def _activation_elems(graph: Graph, node: Node) -> int:
    return sum(_numel(_shape(graph, i)) for i in node.inputs if i and not _is_const(graph, i))


def _is_const(graph: Graph, name: str) -> bool:
    """Initializer, Constant output, or a DequantizeLinear of one (QDQ weights)."""
    if graph.is_constant(name):
        return True
    p = graph.producers.get(name)
    return p is not None and p.op_type in ("DequantizeLinear", "Cast", "Identity") and bool(p.inputs) \
        and _is_const(graph, p.inputs[0])


def workload(graph: Graph, node: Node) -> Workload:
    w = _workload(graph, node)
    inputs = {t.name: t for t in graph.inputs}
    read = [_shape(graph, i) for i in node.inputs if i in inputs]
    if w.kind != "free" and any(o in {t.name for t in graph.outputs} for o in node.outputs):
        w = dataclasses.replace(w, writes_graph_output=True)
    if not read or w.kind == "free" or not all(read):
        return w
    return dataclasses.replace(w, graph_input_elems=sum(_numel(s) for s in read),
                               graph_input_channels=hwc(read[0])[2])


def _workload(graph: Graph, node: Node) -> Workload:
    op = node.op_type
    y = _shape(graph, node.outputs[0]) if node.outputs else None
    ofm = _numel(y)
    ifm = _activation_elems(graph, node)
    if op in FREE_OPS or not node.outputs:
        return Workload("free", ofm_elems=ofm, ifm_elems=ifm)
    if op in ("Conv", "ConvTranspose"):
        return _conv(graph, node, y, ifm)
    if op in ("Gemm", "MatMul", "MatMulInteger", "QLinearMatMul"):
        return _matmul(graph, node, y, ifm)
    if op in POOL_OPS:
        x = _shape(graph, node.inputs[0])
        if x is None or y is None:
            return Workload("pool", shapes_known=False)
        if op in ("MaxPool", "AveragePool", "LpPool"):
            kernel = math.prod(node.attr("kernel_shape", [1]))
            return Workload("pool", kernel=kernel, ofm_elems=ofm, ifm_elems=ifm,
                            mac_op=_mac_op(node, "pool", x, y, node.attr("kernel_shape", [1, 1])))
        else:  # global pooling / reductions: input elements per output element
            kernel = max(1, _numel(x) // max(1, _numel(y)))
        return Workload("pool", kernel=kernel, ofm_elems=ofm, ifm_elems=ifm)
    if op in MOVE_OPS:
        return Workload("move", ofm_elems=ofm, ifm_elems=ifm, shapes_known=y is not None)
    return Workload("elementwise", ofm_elems=ofm, ifm_elems=ifm, ops=VECTOR_PASSES.get(op, 1),
                    fusable=op in FUSABLE_OPS, shapes_known=y is not None, const_reads=_const_reads(graph, node),
                    ofm_hwc=hwc(y))


def hwc(shape: tuple[int, ...] | None) -> tuple[int, int, int]:
    """(H, W, C) of a batch-1 tensor in NHWC: NCHW for 4-D ONNX tensors, else the innermost axis is C,
    the next W and the rest H (a [1, T, D] token tensor is 1 x T x D)."""
    if not shape:
        return (0, 0, 0)
    if len(shape) == 4:
        return (shape[2], shape[3], shape[1])
    c = shape[-1]
    w = shape[-2] if len(shape) > 1 else 1
    return (math.prod(shape[:-2]) if len(shape) > 2 else 1, w, c)


def _const_reads(graph: Graph, node: Node) -> int:
    """Constant operands with more than one element: a BatchNormalization that does not fold is a
    per-channel Mul and Add (two), a binary op counts its constant inputs. Scalars travel in a register."""
    if node.op_type == "BatchNormalization":
        return 2
    if node.op_type not in BINARY_CONST_OPS:
        return 0
    return sum(1 for i in node.inputs[:2] if i and _is_const(graph, i) and _numel(_shape(graph, i)) > 1)


def _const_value(graph: Graph, name: str):
    """The value of a constant operand, through the DequantizeLinear/Cast/Identity ``_is_const`` follows."""
    for _ in range(4):
        value = graph.constant(name)
        if value is not None:
            return value
        p = graph.producers.get(name)
        if p is None or p.op_type not in ("DequantizeLinear", "Cast", "Identity") or not p.inputs:
            return None
        name = p.inputs[0]
    return None


def _conv(graph: Graph, node: Node, y, ifm: int) -> Workload:
    w = _shape(graph, node.inputs[1]) if len(node.inputs) > 1 else None
    x = _shape(graph, node.inputs[0])
    if w is None or y is None or x is None or len(w) < 3:
        return Workload("gemm", shapes_known=False)
    group = int(node.attr("group", 1) or 1)
    kernel = math.prod(w[2:])
    bias = BIAS_BYTES * (y[1] if len(node.inputs) > 2 and node.inputs[2] else 0)
    weights = math.prod(w) + bias
    if node.op_type == "ConvTranspose":  # w: [Cin, Cout/g, k...]; scatter form: M = input pixels
        m = x[0] * math.prod(x[2:])
        return Workload("gemm", m=m, k=w[0] // group, n=w[1] * kernel, groups=group, kernel=1,
                        cin_per_group=w[0] // group, ofm_elems=_numel(y), ifm_elems=ifm, weight_bytes=weights)
    m = y[0] * math.prod(y[2:])
    cin_g, cout_g = w[1], w[0] // group
    kind = "depthwise" if group > 1 and cin_g == 1 else "gemm"
    mac = (_mac_op(node, "depthwise" if kind == "depthwise" else "conv", x, y, w[2:])
           if group == 1 or kind == "depthwise" else None)
    return Workload(kind, m=m, k=cin_g * kernel, n=cout_g, groups=group, kernel=kernel, cin_per_group=cin_g,
                    ofm_elems=_numel(y), ifm_elems=ifm, weight_bytes=weights,
                    ofm_hwc=hwc(y) if y[0] == 1 else (0, 0, 0), mac_op=mac, weights=conv_weights(graph, node, mac))


def conv_weights(graph: Graph, node: Node, op: MacOp | None) -> LayerWeights | None:
    """A 2-D conv's constant weights as (O, H, W, I) (depthwise: (C, H, W, 1)) with the op they belong to."""
    value = _const_value(graph, node.inputs[1])
    if op is None or value is None or value.ndim != 4:
        return None
    return LayerWeights(np.transpose(value, (0, 2, 3, 1)), op)


def _mac_op(node: Node, kind: str, x: tuple[int, ...], y: tuple[int, ...], kernel) -> MacOp | None:
    """A batch-1, 2-D conv/depthwise/pooling node as ``npuready.cost.mac_block`` sees it (None otherwise)."""
    if len(x) != 4 or len(y) != 4 or x[0] != 1 or len(kernel) != 2:
        return None
    pair = lambda name: tuple(int(v) for v in (node.attr(name, [1, 1]) or [1, 1]))[:2]  # noqa: E731
    return MacOp(kind, hwc(x), hwc(y), (int(kernel[0]), int(kernel[1])), pair("strides"), pair("dilations"))


def _matmul(graph: Graph, node: Node, y, ifm: int) -> Workload:
    a = _shape(graph, node.inputs[0])
    b = _shape(graph, node.inputs[1]) if len(node.inputs) > 1 else None
    if a is None or b is None or y is None or not a or not y:
        return Workload("gemm", shapes_known=False)
    if node.op_type == "Gemm":
        m, k = (a[1], a[0]) if node.attr("transA", 0) else (a[0], a[1])
        n = b[0] if node.attr("transB", 0) else b[1]
        batch = 1
    else:
        k = a[-1]
        n = y[-1] if len(y) >= 1 else 1
        m = y[-2] if len(y) >= 2 else 1
        batch = max(1, _numel(y) // max(1, m * n))
    weights = 0
    if _is_const(graph, node.inputs[1]):
        weights = _numel(b)
        if node.op_type == "Gemm" and len(node.inputs) > 2 and node.inputs[2]:
            weights += BIAS_BYTES * n
    fc = weights and batch == 1  # a constant B: a FullyConnected layer on an NPU
    ofm_hwc = fc_ofm_hwc(m, n) if fc else (0, 0, 0)
    mac = MacOp("conv", (*ofm_hwc[:2], k), ofm_hwc) if fc else None
    return Workload("gemm", m=m, k=k, n=n, groups=batch, kernel=1, cin_per_group=k, ofm_elems=_numel(y),
                    ifm_elems=ifm, weight_bytes=weights, ofm_hwc=ofm_hwc, mac_op=mac,
                    weights=_fc_weights(graph, node, mac, k, n))


def _fc_weights(graph: Graph, node: Node, op: MacOp | None, k: int, n: int) -> LayerWeights | None:
    """A fully connected layer's constant B as (N, 1, 1, K), the layout of a TFLite FULLY_CONNECTED filter."""
    value = _const_value(graph, node.inputs[1]) if op is not None else None
    if value is None or value.size != k * n:
        return None
    transposed = node.op_type == "Gemm" and node.attr("transB", 0)
    nk = value.reshape(n, k) if transposed else value.reshape(k, n).T
    return LayerWeights(nk[:, None, None, :], op, fully_connected=True)


def fc_ofm_hwc(rows: int, n: int) -> tuple[int, int, int]:
    """The (H, W, C) output a fully connected layer of ``rows`` input rows is computed as: regor (ethos-u-vela
    5.2.0 sdist) ``GraphIrOptimiser::RewriteFullyConnected`` turns the ``rows`` batch into an H x W image,
    ``W = max(rows // 16, ceil(sqrt(rows)))`` raised until it divides ``rows``, ``H = rows / W`` ("more square
    H/W gives better performance"), so 49 token rows run as 7 x 7 pixels and 1 row as 1 x 1."""
    w = max(rows // 16, math.isqrt(rows - 1) + 1 if rows > 1 else 1)
    while rows % w:
        w += 1
    return (rows // w, w, n)
