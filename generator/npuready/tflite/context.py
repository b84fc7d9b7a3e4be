"""Lowering state shared by the op converters: ONNX values → TFLite tensors with their axis order.

A ``Value`` is one ONNX tensor as it exists in the TFLite graph: a tensor index and ``perm`` (TFLite
axis i holds ONNX axis perm[i]; see tensor_map.py). Converters ask for an input in the axis order they
need (``ctx.value(name, perm)``) and the context inserts a TRANSPOSE only when the stored order
differs. Constants are materialised on demand in the requested order, float32 in float mode and with
their ONNX QDQ integers and scales in int8 mode (``quant`` set).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from ai_edge_litert import schema_py_generated as fb

from npuready.errors import InputError
from npuready.graph import Graph
from npuready.graph.view import Node
from npuready.tflite.builder import INT8_VERSION, ModelBuilder, QParams
from npuready.tflite.quant_table import QuantTable, QConst

NHWC = (0, 2, 3, 1)


def identity(rank: int) -> tuple[int, ...]:
    return tuple(range(rank))


@dataclass(frozen=True)
class Value:
    index: int
    perm: tuple[int, ...]
    shape: tuple[int, ...]  # ONNX shape


@dataclass
class Const:
    """A constant in flight: float values and, in int8 mode, its integers + quantization."""

    f: np.ndarray
    q: np.ndarray | None = None
    qp: QParams | None = None

    def transpose(self, perm) -> "Const":
        qp = self.qp
        if qp is not None and qp.per_channel:
            qp = QParams(qp.scale, qp.zero_point, list(perm).index(qp.axis))
        return Const(np.transpose(self.f, perm), None if self.q is None else np.transpose(self.q, perm), qp)

    def reshape(self, shape, axis_shift: int = 0) -> "Const":
        qp = self.qp
        if qp is not None and qp.per_channel:
            qp = QParams(qp.scale, qp.zero_point, qp.axis + axis_shift)
        return Const(self.f.reshape(shape), None if self.q is None else self.q.reshape(shape), qp)


class Context:
    def __init__(self, graph: Graph, quant: QuantTable | None = None):
        self.graph = graph
        self.quant = quant
        self.b = ModelBuilder()
        self.values: dict[str, Value] = {}
        self.consts: dict[str, np.ndarray] = {}
        self.consumed: set[str] = set()  # node names already lowered by a fusing converter
        self.fused: dict[str, str] = {}
        self.adjustments: list[str] = []

    # ----- facts about ONNX tensors ---------------------------------------------------------------
    @property
    def int8(self) -> bool:
        return self.quant is not None

    def shape(self, name: str) -> tuple[int, ...]:
        if name in self.consts:
            return tuple(self.consts[name].shape)
        info = self.graph.info(name)
        if not info.is_static:
            raise InputError(f"tensor {name!r}: shape {info.shape_text()} is not static; export needs "
                             "static shapes with batch 1 (re-export with fixed input sizes)")
        return tuple(int(d) for d in info.shape)

    def const(self, name: str) -> np.ndarray | None:
        if not name:
            return None
        if name in self.consts:
            return self.consts[name]
        v = self.graph.constant(name)
        if v is not None:
            self.consts[name] = v
        return v

    def single_consumer(self, name: str) -> Node | None:
        users = self.graph.consumers.get(name, ())
        if len(users) != 1 or name in self.graph.output_names:
            return None
        return users[0]

    def qparams(self, name: str) -> QParams | None:
        if not self.int8:
            return None
        qp = self.quant.act.get(name)
        if qp is None:  # an elementwise result quantised only after a layout op (engine.ops.lut.layout_user)
            from npuready.engine.ops.lut import layout_user

            user = layout_user(self.graph, name, self.quant.act)
            qp = None if user is None else self.quant.act[user.outputs[0]]
        if qp is None:
            raise InputError(f"tensor {name!r}: no QuantizeLinear/DequantizeLinear pair in the QDQ model; "
                             "full-integer TFLite needs every activation quantized (quantize that op too)")
        return qp

    def const_tensor(self, name: str) -> Const:
        v = self.const(name)
        if v is None:
            raise InputError(f"tensor {name!r}: must be a constant (initializer) for this TFLite op")
        c = Const(np.asarray(v, dtype=np.float32))
        if self.int8:
            qc: QConst | None = self.quant.const.get(name)
            if qc is not None:
                c.q, c.qp = qc.q, qc.qp
        return c

    # ----- emitting ---------------------------------------------------------------------------
    def op(self, opname: str, inputs, outputs, options=None) -> None:
        version = INT8_VERSION.get(opname, 1) if self.int8 else 1
        self.b.op(opname, inputs, outputs, options, version)

    def add_const(self, label: str, c: Const, dtype: str | None = None) -> int:
        """A constant tensor; int8 mode uses the QDQ integers when present (``dtype`` overrides)."""
        if dtype in ("int32", "int64") and c.q is None:
            return self.b.tensor(label, c.f.shape, dtype, data=c.f.astype(dtype))
        if self.int8 and dtype != "float32":
            if c.q is None:
                raise InputError(f"constant {label!r}: has no DequantizeLinear in the QDQ model; "
                                 "full-integer TFLite needs quantized constants")
            return self.b.tensor(label, c.q.shape, str(c.q.dtype), data=c.q, qparams=c.qp)
        return self.b.tensor(label, c.f.shape, "float32", data=c.f)

    def int_const(self, label: str, values) -> int:
        arr = np.asarray(values, dtype=np.int32)
        return self.b.tensor(label, arr.shape, "int32", data=arr)

    def new_value(self, name: str, tfl_shape, perm, like: str | None = None,
                  qparams: QParams | None = None) -> int:
        """The TFLite tensor for ONNX tensor ``name`` (registered in the map)."""
        qp = qparams if qparams is not None else (self.qparams(like or name) if self.int8 else None)
        idx = self.b.tensor(name, tfl_shape, "int8" if self.int8 else "float32", qparams=qp)
        self.values[name] = Value(idx, tuple(perm), tuple(int(d) for d in np.asarray(tfl_shape)[np.argsort(perm)]))
        return idx

    def tmp(self, label: str, tfl_shape, qparams: QParams | None) -> int:
        return self.b.tensor(label, tfl_shape, "int8" if self.int8 else "float32", qparams=qparams)

    def alias(self, new: str, old: str) -> None:
        self.values[new] = self.values[old]

    def tensor_qparams(self, index: int) -> QParams | None:
        q = self.b.tensors[index].quantization
        if q is None or q.scale is None:
            return None
        return QParams.of(q.scale, q.zeroPoint, q.quantizedDimension)

    # ----- values in a requested axis order ---------------------------------------------------
    def value(self, name: str, perm: tuple[int, ...] | None = None) -> Value:
        """ONNX tensor ``name`` as a TFLite tensor stored in axis order ``perm`` (None: as stored)."""
        if name not in self.values:
            c = self.const(name)
            if c is None:
                raise InputError(f"tensor {name!r}: produced by an op that was not exported")
            const = self.const_tensor(name)
            p = perm or identity(const.f.ndim)
            idx = self.add_const(name, const.transpose(p) if p != identity(const.f.ndim) else const)
            v = Value(idx, p, tuple(const.f.shape))
            self.values[name] = v
            return v
        v = self.values[name]
        if perm is None or v.perm == perm:
            return v
        # TFLite perm taking stored order v.perm to the requested order perm
        q = [list(v.perm).index(a) for a in perm]
        out_shape = [v.shape[a] for a in perm]
        qp = self.tensor_qparams(v.index)
        idx = self.tmp(f"{name}#perm{''.join(map(str, perm))}", out_shape, qp)
        self.op("TRANSPOSE", [v.index, self.int_const(f"{name}#tperm", q)], [idx], fb.TransposeOptionsT())
        nv = Value(idx, perm, v.shape)
        if perm == identity(len(perm)) and name not in self.graph.output_names:
            self.values[name] = nv  # later users get the canonical copy without another transpose
        return nv

    def value_for_broadcast(self, name: str, perm: tuple[int, ...]) -> Value:
        """An elementwise operand in the output's axis order; constants are rank-extended first."""
        c = self.const(name)
        if c is not None and name not in self.values:
            rank = len(perm)
            const = self.const_tensor(name)
            pad = rank - const.f.ndim
            if pad < 0:
                raise InputError(f"tensor {name!r}: rank {const.f.ndim} > output rank {rank}")
            if pad:
                const = const.reshape((1,) * pad + const.f.shape, axis_shift=pad)
            if perm != identity(rank):
                const = const.transpose(perm)
            if self.int8 and const.q is None:  # left in float by the quantiser: the integer engine's codes
                from npuready.engine.ops.constant import quantize_operand

                codes, scale = quantize_operand(const.f)
                const = Const(const.f, codes, QParams.of(scale, 0))
            idx = self.add_const(name, const)
            return Value(idx, perm, tuple(np.asarray(const.f.shape)[np.argsort(perm)]))
        v = self.values.get(name)
        if v is None:
            return self.value(name)
        if len(v.perm) == len(perm):
            return self.value(name, perm)
        if v.perm != identity(len(v.perm)) or perm != identity(len(perm)):
            raise InputError(f"tensor {name!r}: rank-{len(v.perm)} operand broadcast against a rank-"
                             f"{len(perm)} channels-last tensor is not supported; reshape it to rank {len(perm)}")
        return v

    # ----- int8 scale rules -------------------------------------------------------------------
    def requantize(self, index: int, to: QParams, label: str, why: str) -> int:
        """A QUANTIZE (int8→int8 rescale) of tensor ``index`` to ``to``; recorded as an adjustment."""
        out = self.tmp(label, self.b.shape_of(index), to)
        self.op("QUANTIZE", [index], [out])
        self.adjustments.append(f"{label}: inserted QUANTIZE requantize ({why})")
        return out

    def emit_same_scale(self, opname: str, inputs, options, out_name: str, tfl_shape, perm,
                        src_index: int, out_qp: QParams | None = None) -> None:
        """An op whose int8 kernel assumes output scale == input scale (pooling, reshape, ...)."""
        out_idx = self.new_value(out_name, tfl_shape, perm, qparams=out_qp)
        if self.int8:
            src, dst = self.tensor_qparams(src_index), self.tensor_qparams(out_idx)
            if not src.same_as(dst):
                tmp = self.tmp(f"{out_name}#in_scale", tfl_shape, src)
                self.op(opname, inputs, [tmp], options)
                self.op("QUANTIZE", [tmp], [out_idx])
                self.adjustments.append(f"{out_name}: {opname} output scale/zero point differ from its input "
                                        "in the QDQ model; TFLite computes at the input's and a QUANTIZE "
                                        "requantizes")
                return
        self.op(opname, inputs, [out_idx], options)

    def emit_fixed_out(self, opname: str, inputs, options, out_name: str, tfl_shape, perm,
                       fixed: QParams) -> None:
        """An op whose int8 kernel needs a fixed output quantization (Softmax, Logistic: 1/256, -128)."""
        out_idx = self.new_value(out_name, tfl_shape, perm)
        if self.int8 and not fixed.same_as(self.tensor_qparams(out_idx)):
            tmp = self.tmp(f"{out_name}#fixed", tfl_shape, fixed)
            self.op(opname, inputs, [tmp], options)
            self.op("QUANTIZE", [tmp], [out_idx])
            self.adjustments.append(f"{out_name}: {opname} int8 output must be scale {fixed.scale[0]:g} zero "
                                    f"point {fixed.zero_point[0]}; QDQ model has "
                                    f"{self.tensor_qparams(out_idx).scale[0]:g}/"
                                    f"{self.tensor_qparams(out_idx).zero_point[0]}; QUANTIZE inserted")
            return
        self.op(opname, inputs, [out_idx], options)
