"""The C++ twin of the NumPy engine: same graph, same op files (engine/cpp/ops/<op>.cpp), called via ctypes.

The shared library is built on first use with ``g++ -O2 -fvect-cost-model=dynamic -std=c++17`` (portable:
no ``-march=native``; the SSE2 baseline of x86-64) into a cache folder keyed by the hash of the sources
(``NPUREADY_CACHE`` or ``~/.cache/npuready``). Conv and Gemm share one int32-accumulating product of packed
int16 pairs (``ops/pairgemm.h``) whose tile kernel is chosen at run time — AVX2 where the CPU has it, else
SSE2, else scalar (``tile_kind``) — and requantise each finished run of accumulators (``fixedpoint.h``'s
``requantize_run``, eight at a time with AVX2). Every kind gives the same integers (integer sums are exact in
any order; the vector requantise is proven equal to the scalar on its domain and falls back outside it).
Python only arranges buffers (broadcasting, pool rescale hand-off, moving Softmax's axis last, the index
copies of Slice, Pad and nearest Resize) and packs each op's weights once; every integer arithmetic op runs
in C++, single-threaded.
"""
from __future__ import annotations

import ctypes as C
import hashlib
import os
import shutil
import subprocess
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import numpy as np

from npuready.engine import cpp_plan
from npuready.engine.cpp_plan import pointer_array
from npuready.engine.cpp_weights import prepared as _prepared
from npuready.engine.intgraph import IntGraph, IntOp
from npuready.engine.ops import MODULES, add, matmul, mean, mul, prelu
from npuready.engine.ops.descriptor import scalar_args
from npuready.engine.ops.lut import reshaped
from npuready.engine.ops.pad import padded
from npuready.engine.ops.resize import gather
from npuready.engine.ops.slice import take
from npuready.engine.runner import check_input, run_graph
from npuready.errors import InputError

SRC = Path(__file__).parent / "cpp"
FLAGS = ["-O2", "-fvect-cost-model=dynamic", "-std=c++17", "-shared", "-fPIC"]  # portable; AVX2 by dispatch
ROUNDING_CODE = {"double": 0, "single": 1}
COLS_BELOW_PIXELS = 16  # a Conv with fewer output pixels per image gets its weights packed as columns too
_NO_COLS = np.zeros(1, np.int16)
def _array_pointer(dtype) -> type:
    """ctypes argument type: a C-contiguous ndarray of ``dtype``, passed as its data pointer. Checks what
    ``np.ctypeslib.ndpointer`` checks here, at a third of its cost per call (deit_tiny makes ~900 calls per
    image, three or more arrays each)."""
    dt = np.dtype(dtype)

    class ArrayPointer:
        @classmethod
        def from_param(cls, a):
            if not isinstance(a, np.ndarray) or a.dtype != dt or not a.flags.c_contiguous:
                raise TypeError(f"C++ engine: expected a C-contiguous {dt} array, got {type(a).__name__} "
                                f"{getattr(a, 'dtype', '')}")
            return C.c_void_p(a.ctypes.data)
    return ArrayPointer


_P8, _P16, _P32, _PF, _P64 = (_array_pointer(t) for t in (np.int8, np.int16, np.int32, np.float32, np.int64))
_I, _L = C.c_int, C.c_int64

#: a descriptor's C type -> its ctypes argument type
CTYPE = {"i8*": _P8, "i16*": _P16, "i32*": _P32, "i64*": _P64, "f32*": _PF, "int": _I, "int64": _L,
         "float": C.c_float}
#: C++ symbol -> argument types: derived from the op descriptors that declare their C++ kernel, the rest by hand
SIGNATURES = {
    **{m.DESCRIPTOR.cpp.symbol: [CTYPE[t] for t in m.DESCRIPTOR.cpp.argtypes(m.DESCRIPTOR.params)]
       for m in MODULES if m.DESCRIPTOR.cpp is not None},
    "npr_conv": [_P8] + [_I] * 4 + [_P8, _P32, _P16] + [_I] * 5 + [_P32] + [_I] * 11 + [_P32, _P32, _I, _I, _I, _P8],
    "npr_gemm": [_P8, _I, _I, _P32, _P16, _I, _P32, _I, _I, _P32, _P32, _I, _I, _I, _P8],
    "npr_maxpool": [_P8] + [_I] * 12 + [_P8],
    "npr_avgpool": [_P8] + [_I] * 12 + [_P8],
    "npr_rescale": [_P8, _L] + [_I] * 8 + [_P8],
    "npr_lut": [_P8, _L, _P8, _P8],
    "npr_quantize": [_PF, _L, C.c_float, _I, _I, _P8],
    "npr_transpose": [_P8, _I, _P64, _P32, _P8],
    "npr_concat": [C.POINTER(C.c_void_p), _P64, _I, _L, _L, _P8],
    "npr_gather": [_P8, _L, _L, _L, _P64, _L, _P8],
    "npr_softmax": [_P8, _L, _I, _P64, _I, _P8],
    "npr_resize_bilinear": [_P8, _L] + [_I] * 4 + [_P64] * 6 + [_P8],
    "npr_convtranspose": [_P8] + [_I] * 4 + [_P8] + [_I] * 3 + [_P32] + [_I] * 10 + [_P32, _P32] + [_I] * 3 + [_P8],
    "npr_batchnorm": [_P8, _L, _I, _L, _P8, _P32, _I, _P32, _P32, _I, _I, _I, _I, _P8],
    "npr_layernorm": [_P8, _L, _I, _I, _I, _L, _I, _I, _P64, _P64, _I, _I, _P8],
    "npr_requantize": [_P32, _I, _P32, _P32, _P32, _I, _I, _I, _I, _P8],
}
RETURNS = {"npr_pair_tile": ([_I], C.c_int)}
#: the ctypes types of a replayed call (``cpp_plan``): pointers pre-resolved to addresses, scalars as declared
_RAW = {_P8: C.c_void_p, _P16: C.c_void_p, _P32: C.c_void_p, _PF: C.c_void_p, _P64: C.c_void_p}


def sources() -> list[Path]:
    return sorted([SRC / "fixedpoint.h", *(SRC / "ops").glob("*.h"), *(SRC / "ops").glob("*.cpp")])


def cache_dir() -> Path:
    return Path(os.environ.get("NPUREADY_CACHE", Path.home() / ".cache" / "npuready"))


def build(force: bool = False) -> Path:
    """Compile the twin (once per source hash) and return the shared library path."""
    h = hashlib.sha256()
    for p in sources():
        h.update(p.name.encode())
        h.update(p.read_bytes())
    h.update(" ".join(FLAGS).encode())
    out = cache_dir() / f"npuready_engine_{h.hexdigest()[:16]}.so"
    if out.exists() and not force:
        return out
    compiler = os.environ.get("CXX", "g++")
    if shutil.which(compiler) is None:
        raise InputError(f"C++ engine: compiler {compiler!r} not found; install g++ (apt-get install g++) or set CXX")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".{os.getpid()}.tmp")
    cmd = [compiler, *FLAGS, "-I", str(SRC), *map(str, (SRC / "ops").glob("*.cpp")), "-o", str(tmp)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"C++ engine build failed:\n{' '.join(cmd)}\n{res.stderr}")
    os.replace(tmp, out)
    return out


@lru_cache(maxsize=1)
def library() -> C.CDLL:
    lib = C.CDLL(str(build()))
    for name, args in SIGNATURES.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = None
    for name, (args, res) in RETURNS.items():
        getattr(lib, name).argtypes, getattr(lib, name).restype = args, res
    return lib


@lru_cache(maxsize=1)
def raw_library() -> C.CDLL:
    """A second handle on the library whose functions take addresses where ``library()``'s take arrays: the
    calls ``cpp_plan`` replays, already checked when they were recorded."""
    lib = C.CDLL(str(build()))
    for name, args in SIGNATURES.items():
        fn = getattr(lib, name)
        fn.argtypes = [_RAW.get(a, a) for a in args]
        fn.restype = None
    return lib


_RECORDING = threading.local()


class _Recorder:
    """``library()`` that also notes each call (symbol, arguments) for ``cpp_plan``."""

    def __init__(self, calls: list):
        self.calls = calls

    def __getattr__(self, symbol: str):
        fn = getattr(library(), symbol)

        def call(*args):
            self.calls.append((symbol, args))
            return fn(*args)
        return call


@contextmanager
def recording():
    """Within: every kernel call into C++ is also appended to the yielded list (this thread only)."""
    calls: list = []
    _RECORDING.recorder = _Recorder(calls)
    try:
        yield calls
    finally:
        _RECORDING.recorder = None


def _lib():
    return getattr(_RECORDING, "recorder", None) or library()


TILE_KINDS = ("scalar", "sse2", "avx2")


def tile_kind(kind: str | None = None) -> str:
    """The matrix-product kernel in use (``pairgemm.cpp``): the widest this CPU runs unless ``kind`` picks a
    narrower one (the tests compare them all; every kind gives the same integers)."""
    return TILE_KINDS[library().npr_pair_tile(-1 if kind is None else TILE_KINDS.index(kind))]


def _c8(a) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.int8)


def _c32(a, n: int) -> np.ndarray:
    return np.ascontiguousarray(np.broadcast_to(np.asarray(a, dtype=np.int32), (n,)))


def _broadcast8(a, b) -> tuple[np.ndarray, np.ndarray]:
    """Both operands as contiguous int8 of the broadcast shape (no copy for an operand that has it)."""
    if a.shape == b.shape:
        return _c8(a), _c8(b)
    shape = np.broadcast(a, b).shape  # C-level: np.broadcast_shapes / broadcast_to cost more than the copy
    out = []
    for v in (a, b):
        if v.shape != shape:
            full = np.empty(shape, np.int8)
            full[...] = v
            v = full
        out.append(_c8(v))
    return out[0], out[1]


def _rescale(p, x: np.ndarray, lo: int, hi: int, rounding: int) -> np.ndarray:
    x = _c8(x)
    if p is None and lo == -128 and hi == 127:  # same quantisation, no clamp: nothing to do
        return x
    y = np.empty_like(x)
    if p is None:
        _lib().npr_rescale(x, x.size, 0, 0, 0, 0, 0, lo, hi, rounding, y)
    else:
        _lib().npr_rescale(x, x.size, 1, p["input_zero_point"], p["multiplier"], p["shift"],
                              p["output_zero_point"], lo, hi, rounding, y)
    return y


# ----- one function per op kind, mirroring engine/ops/<op>.py ---------------------------------
def _conv(op, xs, r):
    p, x = op.params, _c8(xs[0])
    w = p["weight"]
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    (sh, sw), (dh, dw), (pt, pl, pb, pr) = p["strides"], p["dilations"], p["pads"]
    oh = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    few = p["group"] == 1 and oh * ow < COLS_BELOW_PIXELS  # conv.cpp may take the pixels as rows
    k = _prepared(p, cols=few)
    y = np.empty((n, o, oh, ow), np.int8)
    _lib().npr_conv(x, n, c, h, wd, k["weight"], k["pairs"], k["cols"] if few else _NO_COLS, int(few), o, cg, kh,
                    kw, k["bias"], sh, sw, dh, dw, pt, pl, oh, ow, p["group"], p["input_zero_point"],
                    p["output_zero_point"], k["multiplier"], k["shift"],
                    p["act_min"], p["act_max"], r, y)
    return y


def _gemm(op, xs, r):
    p, x = op.params, _c8(xs[0])
    pre = _prepared(p)
    o, k = p["weight"].shape
    lead = x.shape[:-1]
    n = int(np.prod(lead)) if lead else 1
    y = np.empty((*lead, o), np.int8)
    _lib().npr_gemm(x, n, k, pre["pairs"], pre["cols"], o, pre["bias"], p["input_zero_point"],
                       p["output_zero_point"], pre["multiplier"], pre["shift"], p["act_min"], p["act_max"], r, y)
    return y


def _add(op, xs, r):
    p = op.params
    a, b = _broadcast8(xs[0], xs[1])
    y = np.empty_like(a)
    _lib().npr_add(a, b, a.size, *scalar_args(add.Params, p), r, y)
    return y


def _mul(op, xs, r):
    p = op.params
    a, b = _broadcast8(xs[0], xs[1])
    y = np.empty_like(a)
    _lib().npr_mul(a, b, a.size, *scalar_args(mul.Params, p), r, y)
    return y


def _pool(fn_name):
    def run(op, xs, r):
        p, x = op.params, _c8(xs[0])
        n, c, h, w = x.shape
        (kh, kw), (sh, sw), (pt, pl, pb, pr) = p["kernel"], p["strides"], p["pads"]
        oh, ow = (h + pt + pb - kh) // sh + 1, (w + pl + pr - kw) // sw + 1
        y = np.empty((n, c, oh, ow), np.int8)
        getattr(_lib(), fn_name)(x, n, c, h, w, kh, kw, sh, sw, pt, pl, oh, ow, y)
        return _rescale(p["rescale"], y, p["act_min"], p["act_max"], r)
    return run


def _mean(op, xs, r):
    p, x = op.params, xs[0]
    axes = list(p["axes"])
    keep = [a for a in range(x.ndim) if a not in axes]
    xt = _c8(np.transpose(x, keep + axes))  # reduced axes last and contiguous
    planes = int(np.prod([x.shape[a] for a in keep]))
    y = np.empty(planes, np.int8)
    _lib().npr_mean(xt, planes, *scalar_args(mean.Params, p), r, y)
    shape = [1 if a in axes else x.shape[a] for a in range(x.ndim)] if p["keepdims"] else [x.shape[a] for a in keep]
    return y.reshape(shape)


def _gather(op, xs, r):
    p, x = op.params, _c8(xs[0])
    ax, idx = p["axis"], np.asarray(p["indices"], np.int64)
    flat = np.ascontiguousarray(idx.reshape(-1))
    outer, inner = int(np.prod(x.shape[:ax])), int(np.prod(x.shape[ax + 1:]))
    y = np.empty(outer * flat.size * inner, np.int8)
    _lib().npr_gather(x, outer, x.shape[ax], inner, flat, flat.size, y)
    y = y.reshape(*x.shape[:ax], *idx.shape, *x.shape[ax + 1:])
    return _rescale(p["rescale"], y, p["act_min"], p["act_max"], r)


def _matmul(op, xs, r):
    p = op.params
    a, b = xs[0], xs[1]
    lead = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = _c8(np.broadcast_to(a, (*lead, *a.shape[-2:])))
    b = _c8(np.broadcast_to(b, (*lead, *b.shape[-2:])))
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    y = np.empty((*lead, m, n), np.int8)
    _lib().npr_matmul(a, b, int(np.prod(lead)), m, k, n, *scalar_args(matmul.Params, p), r, y)
    return y


def _softmax(op, xs, r):
    p = op.params
    axis = p.get("axis", xs[0].ndim - 1)
    x = _c8(np.moveaxis(xs[0], axis, -1))  # the normalised axis last and contiguous
    y = np.empty_like(x)
    _lib().npr_softmax(x, x.size // x.shape[-1], x.shape[-1], np.ascontiguousarray(p["exp_table"], np.int64),
                          p["acc_bits"], y)
    return _rescale(p["rescale"], np.moveaxis(y, -1, axis), p["act_min"], p["act_max"], r)


def _layernorm(op, xs, r):
    p, x = op.params, _c8(xs[0])
    y = np.empty_like(x)
    _lib().npr_layernorm(x, x.size // x.shape[-1], x.shape[-1], p["input_zero_point"], p["output_zero_point"],
                            int(p["eps"]), p["frac_bits"], p["gamma_bits"],
                            np.ascontiguousarray(p["gamma"], np.int64), np.ascontiguousarray(p["beta"], np.int64),
                            p["act_min"], p["act_max"], y)
    return y


def _slice(op, xs, r):
    p = op.params
    return _rescale(p["rescale"], take(p, _c8(xs[0])), p["act_min"], p["act_max"], r)


def _prelu(op, xs, r):
    p, x = op.params, _c8(xs[0])
    alpha = _c8(np.broadcast_to(p["alpha"], x.shape))
    y = np.empty_like(x)
    _lib().npr_prelu(x, alpha, x.size, *scalar_args(prelu.Params, p), r, y)
    return y


def _convtranspose(op, xs, r):
    p, x = op.params, _c8(xs[0])
    w = _c8(p["weight"])
    n, c, h, wd = x.shape
    _, o, kh, kw = w.shape
    (sh, sw), (pt, pl, pb, pr), (oph, opw) = p["strides"], p["pads"], p["output_padding"]
    full_h, full_w = (h - 1) * sh + kh + oph, (wd - 1) * sw + kw + opw
    oh, ow = full_h - pt - pb, full_w - pl - pr
    y = np.empty((n, o, oh, ow), np.int8)
    _lib().npr_convtranspose(x, n, c, h, wd, w, o, kh, kw, _c32(p["bias"], o), sh, sw, pt, pl, full_h, full_w,
                                oh, ow, p["input_zero_point"], p["output_zero_point"], _c32(p["multiplier"], o),
                                _c32(p["shift"], o), p["act_min"], p["act_max"], r, y)
    return y


def _batchnorm(op, xs, r):
    p, x = op.params, _c8(xs[0])
    c = p["weight"].size
    y = np.empty_like(x)
    _lib().npr_batchnorm(x, x.shape[0], c, x.size // (x.shape[0] * c), _c8(p["weight"]), _c32(p["bias"], c),
                            p["input_zero_point"], _c32(p["multiplier"], c), _c32(p["shift"], c),
                            p["output_zero_point"], p["act_min"], p["act_max"], r, y)
    return y


def _pad(op, xs, r):
    p = op.params
    return _rescale(p["rescale"], padded(p, _c8(xs[0])), p["act_min"], p["act_max"], r)


def _resize(op, xs, r):
    p = op.params
    return _rescale(p["rescale"], gather(p, _c8(xs[0])), p["act_min"], p["act_max"], r)


def _resize_bilinear(op, xs, r):
    p, x = op.params, _c8(xs[0])
    n, c, h, w = x.shape
    oh, ow = len(p["row_pos"]), len(p["col_pos"])
    y = np.empty((n, c, oh, ow), np.int8)
    arrays = [np.ascontiguousarray(p[k], np.int64) for k in ("row_pos", "row_lo", "row_hi", "col_pos", "col_lo",
                                                              "col_hi")]
    _lib().npr_resize_bilinear(x, n * c, h, w, oh, ow, *arrays, y)
    return _rescale(p["rescale"], y, p["act_min"], p["act_max"], r)


def _constant(op, xs, r):
    return op.params["value"]


def _reshape(op, xs, r):
    p = op.params
    x = _c8(xs[0])
    whole = x.size == int(np.prod(p["full_shape"]))  # as engine/ops/reshape.py
    y = x.reshape(p["full_shape"]) if whole else x.reshape(x.shape[0], *p["shape"])
    return _rescale(p["rescale"], y, p["act_min"], p["act_max"], r)


def _transpose(op, xs, r):
    p, x = op.params, _c8(xs[0])
    perm = np.asarray(p["perm"], np.int32)
    y = np.empty(tuple(x.shape[i] for i in perm), np.int8)
    _lib().npr_transpose(x, x.ndim, np.asarray(x.shape, np.int64), perm, y)
    return _rescale(p["rescale"], y, p["act_min"], p["act_max"], r)


def _concat(op, xs, r):
    p = op.params
    parts = [_rescale(rs, x, p["act_min"], p["act_max"], r) for rs, x in zip(p["rescales"], xs)]
    ax = p["axis"]
    shape = list(parts[0].shape)
    sizes = np.asarray([q.shape[ax] for q in parts], np.int64)
    shape[ax] = int(sizes.sum())
    y = np.empty(shape, np.int8)
    _lib().npr_concat(pointer_array(parts), sizes, len(parts), int(np.prod(shape[:ax])),
                      int(np.prod(shape[ax + 1:])), y)
    return y


def _rescale_op(op, xs, r):
    return _rescale(op.params["rescale"], xs[0], op.params["act_min"], op.params["act_max"], r)


def _lut(op, xs, r):
    x = _c8(xs[0])
    y = np.empty_like(x)
    _lib().npr_lut(x, x.size, _c8(op.params["table"]), y)
    return reshaped(op.params, y)


def _quantize(op, xs, r):
    if xs[0].dtype == np.int8:
        return xs[0]
    p = op.params
    x = np.ascontiguousarray(xs[0], dtype=np.float32)
    y = np.empty(x.shape, np.int8)
    _lib().npr_quantize(x, x.size, float(p["scale"]), p["zero_point"], 0 if p["mode"] == "half_away" else 1, y)
    return y


KERNELS = {
    "Quantize": _quantize, "Conv": _conv, "Gemm": _gemm, "Add": _add, "Mul": _mul, "Concat": _concat,
    "MaxPool": _pool("npr_maxpool"), "AveragePool": _pool("npr_avgpool"), "Mean": _mean, "Reshape": _reshape,
    "Transpose": _transpose, "Rescale": _rescale_op, "Lut": _lut, "Gather": _gather, "MatMul": _matmul,
    "Softmax": _softmax, "LayerNorm": _layernorm, "Constant": _constant, "Slice": _slice, "Resize": _resize,
    "Pad": _pad, "PRelu": _prelu, "ResizeBilinear": _resize_bilinear, "BatchNorm": _batchnorm,
    "ConvTranspose": _convtranspose,
    "Float": lambda op, xs, r: _float_island().run(op, xs),  # a kept-float layer: onnxruntime, not C++
}


def _float_island():
    from npuready.engine.ops import float_island

    return float_island


def run_op(op: IntOp, inputs: list[np.ndarray]) -> np.ndarray:
    kernel = KERNELS.get(op.kind)
    if kernel is None:
        raise InputError(f"op {op.name}: kind {op.kind} has no C++ kernel; use the NumPy engine")
    return kernel(op, inputs, ROUNDING_CODE[op.rounding])


def run(graph: IntGraph, x: np.ndarray, keep: bool = True) -> dict[str, np.ndarray]:
    """Same contract as ``numpy_engine.run``; each batch shape runs by its plan (``cpp_plan``)."""
    x = np.asarray(x)
    check_input(graph, x)
    if len(x) == 0:
        return run_graph(graph, x, run_op, keep)
    if not graph.batchable and len(x) != 1:
        parts = [run(graph, x[i:i + 1], keep) for i in range(len(x))]
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return cpp_plan.run(graph, x, keep, run_op, recording, raw_library(),
                        lambda: run_graph(graph, x, run_op, keep))