"""QDQ ONNX → integer graph: int8 weights, int32 bias, per-channel M0/shift, zero points, declared rounding.

The QDQ pattern is read as onnxruntime's quantizer writes it: every activation passes through a
QuantizeLinear (its output is an int8 tensor of the integer graph), every compute node reads
DequantizeLinear outputs, constant DequantizeLinear inputs are weights/biases. A Relu or Clip left
between a compute node and its QuantizeLinear becomes the op's output clamp. Each op type is built
by ``engine.ops.<op>.build`` (registry in ``engine.ops``).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import onnx

from npuready.engine import fixedpoint
from npuready.engine.intgraph import IntGraph, IntOp, QConst, QTensor, QuantParamError  # noqa: F401 (re-exported)
from npuready.engine.static_shapes import fold_static_shapes
from npuready.errors import InputError
from npuready.graph import load as load_graph

SKIP = {"QuantizeLinear", "DequantizeLinear", "Constant", "Identity"}
CLAMPS = {"Relu", "Clip"}
#: a stored bias scale must equal input scale × weight scale within this relative tolerance (float32 rounding
#: of the product is ~6e-8; the quantiser writes the product itself)
BIAS_SCALE_RTOL = 1e-6


def check_scale(tensor: str, scale: np.ndarray) -> np.ndarray:
    """Every element of a stored scale must be finite and > 0 (``tensor`` names the scale initializer)."""
    s = np.asarray(scale, dtype=np.float64).reshape(-1)
    bad = np.flatnonzero(~np.isfinite(s) | (s <= 0))
    if bad.size:
        i = int(bad[0])
        where = f"[{i}]" if s.size > 1 else ""
        raise QuantParamError(f"scale {tensor}{where} = {float(s[i])!r}: a quantisation scale must be finite and > 0 "
                              f"({bad.size} of {s.size} bad); re-quantise the model")
    return scale


FLOAT_OPERAND_OPS = {"Add", "Sub", "Mul"}  # elementwise ops whose float constant operand is quantised here


def _is_float(v) -> bool:
    return v is not None and np.asarray(v).dtype.kind == "f"


class Builder:
    """What an op's ``build`` sees: its quantised inputs, constants, output tensor and clamp."""

    def __init__(self, graph, rounding: str):
        self.graph = graph
        self.rounding = rounding
        self.tensors: dict[str, QTensor] = {}
        self.act_dq: dict[str, str] = {}      # DQ output (float name) -> int8 tensor name
        self.const_dq: dict[str, QConst] = {}  # DQ output -> constant
        self.q_of: dict[str, onnx.NodeProto] = {}  # float name -> its QuantizeLinear node
        self.fused: set[str] = set()  # Relu/Clip nodes folded into their producer's clamp
        self.pending: list[IntOp] = []  # Constant ops created while building an op
        self.batchable = True  # False once an op moves or indexes the batch axis
        for node in graph.nodes:
            if node.op_type == "QuantizeLinear":
                self.q_of[node.inputs[0]] = node
                self.tensors[node.outputs[0]] = self._qtensor(node)
        for node in graph.nodes:
            if node.op_type == "DequantizeLinear":
                src = node.inputs[0]
                if graph.is_constant(src):
                    self.const_dq[node.outputs[0]] = self._qconst(node)
                else:
                    self.act_dq[node.outputs[0]] = src
        for node in graph.nodes:  # Identity (Paddle2ONNX writes them mid-graph) names the same tensor again
            if node.op_type == "Identity" and node.outputs:
                if node.inputs[0] in self.act_dq:
                    self.act_dq[node.outputs[0]] = self.act_dq[node.inputs[0]]
                elif node.inputs[0] in self.const_dq:
                    self.const_dq[node.outputs[0]] = self.const_dq[node.inputs[0]]

    # ----- reading the QDQ pattern ---------------------------------------------------------
    def _scalar(self, node, idx: int, default=0):
        if len(node.inputs) <= idx or not node.inputs[idx]:
            return np.asarray(default)
        v = self.graph.constant(node.inputs[idx])
        if v is None:
            raise InputError(f"node {node.name}: quantisation parameter {node.inputs[idx]} is not a constant; "
                             "integer export needs static scales and zero points")
        return v

    def _qtensor(self, qnode) -> QTensor:
        scale = check_scale(qnode.inputs[1], self._scalar(qnode, 1))
        zp = self._scalar(qnode, 2)
        if scale.size != 1:
            raise InputError(f"node {qnode.name}: per-channel activation quantisation is not supported; "
                             "quantise activations per tensor")
        zp_dtype = np.dtype(zp.dtype)
        if zp_dtype != np.int8:
            raise QuantParamError(f"zero point {qnode.inputs[2] if len(qnode.inputs) > 2 else '(none)'} of "
                                  f"{qnode.outputs[0]} (node {qnode.name}): type {zp_dtype} is not int8; "
                                  "quantise activations as QInt8")
        info = self.graph.info(qnode.inputs[0])
        shape = tuple(int(d) if isinstance(d, int) else 1 for d in (info.shape or ()))
        return QTensor(qnode.outputs[0], qnode.inputs[0], shape, float(np.float32(scale.reshape(()))),
                       int(zp.reshape(())))

    def _qconst(self, dq) -> QConst:
        values = self.graph.constant(dq.inputs[0])
        scale = np.asarray(check_scale(dq.inputs[1], self._scalar(dq, 1)), dtype=np.float32)
        zp = np.asarray(self._scalar(dq, 2), dtype=np.int64)
        return QConst(values.astype(np.int64), scale.reshape(-1), zp.reshape(-1), int(dq.attr("axis", 1)),
                      dq.inputs[0], dq.inputs[1])

    def act(self, node, idx: int) -> QTensor:
        name = node.inputs[idx]
        if name in self.const_dq and name not in self.act_dq:
            return self._constant_tensor(node, name)
        if name not in self.act_dq and node.op_type in FLOAT_OPERAND_OPS and _is_float(self.graph.constant(name)):
            return self._float_constant_tensor(node, name)
        if name not in self.act_dq:
            raise InputError(f"node {node.name} ({node.op_type}): input {name} is not a dequantised int8 "
                             "activation; quantise the model in QDQ format (npuready quantize)")
        return self.tensors[self.act_dq[name]]

    def _constant_tensor(self, node, name: str) -> QTensor:
        """A quantised constant used as an operand (e.g. Add/Mul by a constant): an int8 tensor of its own."""
        c = self.const_dq[name]
        key = f"{name}#const"
        if key not in self.tensors:
            if c.scale.size != 1 or np.any(c.values < -128) or np.any(c.values > 127):
                raise InputError(f"node {node.name}: constant operand {name} is not a per-tensor int8 constant; "
                                 "quantise it per tensor as int8")
            self.tensors[key] = QTensor(key, name, tuple(c.values.shape), float(c.scale[0]), int(c.zero_point[0]))
            self.pending.append(IntOp(f"{name}#const", "Constant", (), (key,),
                                      {"value": c.values.astype(np.int8)}, self.rounding))
        return self.tensors[key]

    def _float_constant_tensor(self, node, name: str) -> QTensor:
        """A float constant operand the quantiser left unquantised (``ops.constant.quantize_operand``)."""
        from npuready.engine.ops.constant import quantize_operand

        key = f"{name}#const"
        if key not in self.tensors:
            codes, scale = quantize_operand(self.graph.constant(name))
            self.tensors[key] = QTensor(key, name, tuple(codes.shape), scale, 0)
            self.pending.append(IntOp(key, "Constant", (), (key,), {"value": codes}, self.rounding))
        return self.tensors[key]

    def const(self, node, idx: int) -> QConst | None:
        if len(node.inputs) <= idx or not node.inputs[idx]:
            return None
        name = node.inputs[idx]
        if name in self.const_dq:
            return self.const_dq[name]
        raise InputError(f"node {node.name} ({node.op_type}): constant input {name} is not behind a "
                         "DequantizeLinear; weights must be int8 and biases int32 in the QDQ model")

    def bias(self, node, idx: int, x: QTensor, weight_scales: np.ndarray, channels: int) -> np.ndarray:
        """The int32 bias of ``node`` as stored, after checking its stored scale is ``x.scale × weight_scales``
        (per output channel, within float32 rounding) and its zero point 0; zeros without a bias."""
        c = self.const(node, idx)
        if c is None:
            return np.zeros(channels, np.int32)
        name = f"{c.name} (scale {c.scale_name}, node {node.name})"
        stored = np.broadcast_to(c.scale.astype(np.float64), (channels,))
        want = np.float64(np.float32(x.scale)) * np.broadcast_to(np.asarray(weight_scales, np.float64), (channels,))
        off = np.abs(stored - want) > BIAS_SCALE_RTOL * want
        if np.any(off):
            i = int(np.flatnonzero(off)[0])
            raise QuantParamError(f"bias {name}: stored scale[{i}] = {stored[i]:.9g} is not input "
                                  f"scale × weight scale = {want[i]:.9g} (relative tolerance {BIAS_SCALE_RTOL:g}, "
                                  f"{int(off.sum())} of {channels} channels off); re-quantise the model")
        if np.any(c.zero_point != 0):
            raise QuantParamError(f"bias {name}: zero point is not 0; int32 biases are symmetric")
        if np.any(c.values < -(1 << 31)) or np.any(c.values >= (1 << 31)):
            raise QuantParamError(f"bias {name}: values do not fit int32")
        return np.broadcast_to(c.values, (channels,)).astype(np.int32)

    def plain_const(self, node, idx: int) -> np.ndarray | None:
        if len(node.inputs) <= idx or not node.inputs[idx]:
            return None
        return self.graph.constant(node.inputs[idx])

    def output(self, node, self_clamp: bool = False, index: int = 0) -> tuple[QTensor, int, int]:
        """The int8 output tensor of ``node`` and the clamp [lo, hi] in codes (fused Relu/Clip included).

        ``self_clamp``: ``node`` is itself a Relu/Clip whose bounds apply; ``index``: which output.
        """
        name = node.outputs[index]
        lo_real, hi_real = -np.inf, np.inf
        seen = 0
        pending = [node] if self_clamp else []
        while pending or name not in self.q_of:
            if pending:
                user = pending.pop()
            else:
                users = self.graph.consumers.get(name, ())
                if len(users) != 1 or users[0].op_type not in CLAMPS or seen > 2:
                    raise InputError(f"node {node.name} ({node.op_type}): output {node.outputs[index]} is not "
                                     "followed by a QuantizeLinear; quantise every activation (QDQ format)")
                user = users[0]
                self.fused.add(user.name)
            if user.op_type == "Relu":
                lo_real = max(lo_real, 0.0)
            else:
                lo = self.plain_const(user, 1)
                hi = self.plain_const(user, 2)
                lo_real = max(lo_real, float(lo) if lo is not None else user.attr("min", -np.inf))
                hi_real = min(hi_real, float(hi) if hi is not None else user.attr("max", np.inf))
            name = user.outputs[0]
            seen += 1
        out = self.tensors[self.q_of[name].outputs[0]]
        return out, *clamp_codes(out, lo_real, hi_real)


def clamp_codes(t: QTensor, lo_real: float, hi_real: float) -> tuple[int, int]:
    """Activation range in codes, as TFLite's CalculateActivationRangeQuantized (round of real/scale + zp)."""
    def q(v: float) -> int:
        r = float(np.float32(v) / np.float32(t.scale))
        return t.zero_point + int(fixedpoint.round_to_int(r))

    lo, hi = -128, 127
    if np.isfinite(lo_real):
        lo = max(lo, q(lo_real))
    if np.isfinite(hi_real):
        hi = min(hi, q(hi_real))
    return lo, hi


def export_integer_graph(model: str | Path | onnx.ModelProto, rounding: str = fixedpoint.DEFAULT_PROFILE) -> IntGraph:
    """Read a QDQ ONNX model and return its integer graph.

    ``rounding`` is a profile of ``fixedpoint.ROUNDING_PROFILES`` (default "tflite-ref") or a plain
    rounding of ``fixedpoint.ROUNDINGS`` applied to every op; each op records what it resolved to.
    """
    from npuready.engine.ops import OPS

    choices = sorted(fixedpoint.ROUNDING_PROFILES) + sorted(fixedpoint.ROUNDINGS)
    if rounding not in choices:
        raise InputError(f"rounding {rounding!r}: unknown; use one of {sorted(set(choices))}")
    graph = load_graph(model)
    from npuready.engine.ops import float_island
    from npuready.quant.keep_float import kept_float

    kept = set(kept_float(graph.model))  # layers a mixed-precision build keeps in float (run on the CPU)
    folded, n_folded = fold_static_shapes(graph.model)  # shape arithmetic of a static graph → constants
    if n_folded:
        graph = load_graph(folded)
    if len(graph.inputs) != 1:
        raise InputError(f"{graph.name}: integer export supports one graph input, found {len(graph.inputs)}")
    b = Builder(graph, rounding)
    x = graph.inputs[0]
    if x.name not in b.q_of:
        raise InputError(f"input {x.name}: not followed by a QuantizeLinear; quantise the model (npuready quantize)")
    qin = b.tensors[b.q_of[x.name].outputs[0]]
    ops: list[IntOp] = [IntOp("input_quantize", "Quantize", (x.name,), (qin.name,),
                              {"scale": qin.scale, "zero_point": qin.zero_point, "mode": "half_away"},
                              fixedpoint.resolve_rounding(rounding, "Quantize"))]
    from npuready.engine.ops import lut

    from npuready.engine.ops import rescale

    for node in graph.nodes:
        if node.op_type == "Identity" and (op := rescale.build_identity(b, node)) is not None:
            ops.append(replace(op, rounding=fixedpoint.resolve_rounding(rounding, op.kind)))
            continue
        if node.op_type in SKIP or node.name in b.fused or _shape_only(graph, node):
            continue
        if node.name in kept:  # a float island: one op per tensor that leaves it
            if float_island.is_output(b, node, kept):
                ops.append(replace(float_island.build(b, node, kept),
                                   rounding=fixedpoint.resolve_rounding(rounding, float_island.KIND)))
            continue
        mod = lut if lut.is_unary(b, node) else OPS.get(node.op_type)
        if mod is None:
            raise InputError(f"node {node.name}: op {node.op_type} has no integer kernel; supported: {sorted(OPS)}")
        try:
            op = mod.build(b, node)
        except ValueError as exc:  # a requantisation multiplier the stored scales make unrepresentable
            raise QuantParamError(f"node {node.name} ({node.op_type}): {exc}; the stored scales of "
                                  f"{', '.join(i for i in node.inputs if i)} → {', '.join(node.outputs)} "
                                  "are inconsistent; re-quantise the model") from None
        ops.extend(replace(c, rounding=fixedpoint.resolve_rounding(rounding, c.kind)) for c in b.pending)
        b.pending.clear()
        ops.append(replace(op, rounding=fixedpoint.resolve_rounding(rounding, op.kind)))
    outputs = []
    for o in graph.outputs:
        prod = graph.producers.get(o.name)
        while prod is not None and prod.op_type == "Identity":  # an exporter's renaming of the output
            prod = graph.producers.get(prod.inputs[0])
        if prod is None or prod.op_type != "DequantizeLinear" or prod.inputs[0] not in b.tensors:
            raise InputError(f"output {o.name}: not produced by a DequantizeLinear of an int8 tensor; "
                             "keep the QDQ pair on every graph output")
        outputs.append(prod.inputs[0])
    shape = tuple(int(d) if isinstance(d, int) else 1 for d in (x.shape or ()))
    return IntGraph(graph.name, tuple(ops), dict(b.tensors), x.name, shape, tuple(outputs), rounding, b.batchable)


def _shape_only(graph, node) -> bool:
    """Shape arithmetic (Shape, Slice/Concat of int64 ...): no activation flows through it."""
    outs = [o for o in node.outputs if o]
    return bool(outs) and all((graph.info(o).dtype or "") in ("int64", "int32") for o in outs)
