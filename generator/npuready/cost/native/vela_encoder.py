"""Vela's own weight encoder, called in the installed ethos-u-vela 5.2.0 through its C interface.

Vela's compiler for the Ethos-U55/U65 (regor, the ``ethosu.regor`` extension module) links Arm's weight codec
(``dependencies/mlw_codec``) and exports its C functions; ``ml_encode_ethosu_stream`` is what
``mle_encode_proxy`` (``architecture/mlw_encode.cpp``) calls for ``EthosU55WeightEncoder::EncodeWeights``: a
source callback hands it the stream 128 Ki values at a time, each chunk encoded as a section with a new palette,
then the end-of-stream marker and the padding to 16 bytes. Called here the same way, with
``MLW_ENCODE_NO_BITSTREAM`` (the encoder runs every decision and counts the bits, writing none), it returns the
encoded length Vela's performance model charges.

The Python-level ``ethosu.mlw_codec.encode`` is NOT this codec: it is the older encoder of Vela's Python
compiler and gives other sizes (no 128 Ki sections, other zero-run handling).

Only ethos-u-vela 5.2.0 (the version the mirrors model, ``pyproject``'s ``validate`` extra) is used: the C
interface is not a published API, so another version falls back to the reference (``available()`` is False).
"""
from __future__ import annotations

import ctypes as C
from functools import lru_cache
from importlib import metadata, util

import numpy as np

VELA_VERSION = "5.2.0"
CHUNK = 128 * 1024  # EthosU55WeightEncoder::EncodeWeights: mle_encode_proxy(source, 128 * 1024, ...)
NO_BITSTREAM = 1  # MLW_ENCODE_NO_BITSTREAM


class _Params(C.Structure):  # ml_ethosu_encode_params_t
    _fields_ = [("source_buffering_hint", C.c_int32), ("encoder_flags", C.c_uint16), ("realloc_func", C.c_void_p)]


class _Result(C.Structure):  # ml_encode_result_t
    _fields_ = [("encoded_data", C.c_void_p), ("encoded_length", C.c_int32), ("source_length", C.c_int32),
                ("section_info", C.c_void_p), ("section_count", C.c_int32)]


class _State(C.Structure):  # ml_source_state_t
    _fields_ = [("new_dim_mask", C.c_uint8), ("end_dim_mask", C.c_uint8), ("eos", C.c_bool)]


_SOURCE = C.CFUNCTYPE(C.c_int32, C.c_int32, C.POINTER(_State), C.c_void_p, C.c_int32, C.c_void_p)


@lru_cache(maxsize=1)
def _library():
    try:
        if metadata.version("ethos-u-vela") != VELA_VERSION:
            return None
        spec = util.find_spec("ethosu.regor")
    except (metadata.PackageNotFoundError, ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    try:
        lib = C.CDLL(spec.origin)
        encode, free = lib.ml_encode_ethosu_stream, lib.mle_free
    except (OSError, AttributeError):
        return None
    encode.argtypes = [C.POINTER(_Result), C.POINTER(_Params), _SOURCE, C.c_void_p, C.c_void_p]
    encode.restype = C.c_int32
    free.argtypes = [C.POINTER(_Result)]
    free.restype = None
    return encode, free


def available() -> bool:
    """Whether the installed Vela's encoder can be called (ethos-u-vela 5.2.0 with its regor module)."""
    return _library() is not None


def stream_bytes(values: np.ndarray) -> int:
    """Encoded bytes of one weight stream, as Vela's encoder counts them (padded to 16)."""
    encode, free = _library()
    data = np.ascontiguousarray(values, dtype=np.int16).ravel()
    n, pos = data.size, [0]

    def source(query, state, buffer, size, user_arg):  # mle_encode_proxy's weight_func + IWeightSource::Get
        take = min(size, n - pos[0])
        if take > 0:
            C.memmove(buffer, data.ctypes.data + 2 * pos[0], 2 * take)
            pos[0] += take
        state[0].eos = take < size
        return take

    result, params = _Result(), _Params(CHUNK, NO_BITSTREAM, None)
    callback = _SOURCE(source)
    if encode(C.byref(result), C.byref(params), callback, None, None) < 0:
        raise RuntimeError(f"Vela's weight encoder failed on a stream of {n} values")
    length = result.encoded_length
    free(C.byref(result))
    return int(length)
