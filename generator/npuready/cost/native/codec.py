"""The Ethos-U weight codec's sizes in C++ (``codec.cpp``): the twin of ``npuready.cost.weight_codec`` (the
NumPy reference) and of ``weight_stream.weight_order``, called via ctypes.

Built like the integer engine (``npuready.engine.cpp_engine``): on first use ``g++ -O2 -std=c++17`` compiles
``codec.cpp`` into the cache folder (``NPUREADY_CACHE`` or ``~/.cache/npuready``) under a name keyed by the
source hash, so a changed source is rebuilt and an unchanged one never. Without a compiler ``available()`` is
False and ``npuready.cost.weight_stream`` uses the reference. The tests assert equal sizes to the reference on
hand-made edge cases and on every weight layer of the ``cost-vs-vela`` models, and to Vela's own encoder.
"""
from __future__ import annotations

import ctypes as C
import hashlib
import os
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import numpy as np

SOURCE = Path(__file__).with_name("codec.cpp")
FLAGS = ["-O3", "-std=c++17", "-shared", "-fPIC"]  # portable: no -march=native
ORDERS = {"depth-first": 0, "part-kernel": 1, "depthwise": 2}  # weight_stream.DEPTH_FIRST, PART_KERNEL, DEPTHWISE
LOWEST, HIGHEST = -255, 255  # the codec's value domain (sign-magnitude palette values up to 511)


def cache_dir() -> Path:
    return Path(os.environ.get("NPUREADY_CACHE", Path.home() / ".cache" / "npuready"))


def library_path() -> Path:
    digest = hashlib.sha256(SOURCE.read_bytes() + " ".join(FLAGS).encode()).hexdigest()[:16]
    return cache_dir() / f"npuready_codec_{digest}.so"


def build() -> Path | None:
    """The compiled codec (built once per source hash), or None when no C++ compiler is installed."""
    out = library_path()
    if out.exists():
        return out
    compiler = os.environ.get("CXX", "g++")
    if shutil.which(compiler) is None:
        return None
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".{os.getpid()}.tmp")
    cmd = [compiler, *FLAGS, str(SOURCE), "-o", str(tmp)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise RuntimeError(f"weight codec build failed:\n{' '.join(cmd)}\n{res.stderr}")
    os.replace(tmp, out)
    return out


_I, _L, _P = C.c_int, C.c_int64, C.c_void_p
_SIGNATURES = {
    "npr_codec_stream_bytes": [_P, _L],
    "npr_codec_weight_order": [_P] + [_I] * 10 + [_P, _L],
    "npr_codec_layer_bytes": [_P] + [_I] * 10,
}


@lru_cache(maxsize=1)
def _library() -> C.CDLL | None:
    path = build()
    if path is None:
        return None
    lib = C.CDLL(str(path))
    for name, args in _SIGNATURES.items():
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = args, C.c_int64
    lib.npr_codec_kind.argtypes, lib.npr_codec_kind.restype = [C.c_int], C.c_int
    return lib


def available() -> bool:
    """Whether the native codec is built (or can be): a C++ compiler is installed."""
    return _library() is not None


KINDS = ("scalar", "avx2")


def kind(force: str | None = None) -> str:
    """The Golomb-Rice search kernel in use: AVX2 where the CPU has it, else the scalar loop, unless ``force``
    picks one (the tests run both; they give the same slices)."""
    return KINDS[_library().npr_codec_kind(-1 if force is None else KINDS.index(force))]


def _checked(result: int, what: str) -> int:
    if result < 0:
        raise RuntimeError(f"native weight codec: inconsistent slice plan while sizing {what}")
    return int(result)


def stream_bytes(values: np.ndarray) -> int:
    """``weight_codec.stream_bytes``: encoded bytes of one stream of values in -255..255."""
    data = np.ascontiguousarray(values, dtype=np.int16).ravel()
    if data.size and (int(data.min()) < LOWEST or int(data.max()) > HIGHEST):
        raise ValueError(f"weight codec: values must lie in {LOWEST}..{HIGHEST}")
    return _checked(_library().npr_codec_stream_bytes(data.ctypes.data, data.size), f"{data.size} values")


def _layer_args(w: np.ndarray, ofm_block_depth: int, how: str, ofm_ublock_depth: int, ifm_ublock_depth: int,
                dilation: tuple[int, int]) -> tuple:
    if w.dtype != np.int8 or w.ndim != 4:
        raise ValueError(f"weight codec: expected (O, H, W, I) int8 weights, got {w.dtype} {w.shape}")
    if how not in ORDERS or ofm_block_depth < 1 or dilation[0] not in (1, 2) or dilation[1] not in (1, 2):
        raise ValueError(f"weight codec: unsupported order {how!r}, block depth {ofm_block_depth}, dilation {dilation}")
    return (*w.shape, ofm_block_depth, ORDERS[how], ofm_ublock_depth, ifm_ublock_depth, dilation[0], dilation[1])


def weight_order(w: np.ndarray, ofm_block_depth: int, how: str, ofm_ublock_depth: int = 8,
                 ifm_ublock_depth: int = 8, dilation: tuple[int, int] = (1, 1)) -> np.ndarray:
    """``weight_stream.weight_order`` natively (int16, the order the codec reads the weights)."""
    w = np.ascontiguousarray(w)
    args = _layer_args(w, ofm_block_depth, how, ofm_ublock_depth, ifm_ublock_depth, dilation)
    lib = _library()
    n = lib.npr_codec_weight_order(w.ctypes.data, *args, None, 0)
    out = np.empty(n, dtype=np.int16)
    lib.npr_codec_weight_order(w.ctypes.data, *args, out.ctypes.data, n)
    return out


def layer_bytes(w: np.ndarray, ofm_block_depth: int, how: str, ofm_ublock_depth: int = 8,
                ifm_ublock_depth: int = 8, dilation: tuple[int, int] = (1, 1)) -> int:
    """Encoded bytes of the int8 (O, H, W, I) weights in the order ``how`` reads them: ``stream_bytes`` of
    ``weight_order`` in one native call."""
    w = np.ascontiguousarray(w)
    args = _layer_args(w, ofm_block_depth, how, ofm_ublock_depth, ifm_ublock_depth, dilation)
    return _checked(_library().npr_codec_layer_bytes(w.ctypes.data, *args), f"weights {w.shape}")
