"""ONNX op type (default domain) → converter ``f(ctx, node)``, built from each lowering module's ``LOWERS``
declaration over the explicit module list below (no scanning); an op type declared twice is refused."""
from __future__ import annotations

from types import ModuleType
from typing import Callable

from npuready.tflite.ops import (activation, batchnorm, conv, convtranspose, elementwise, gemm, norm, pad, pool,
                                 resize, shape, slicing, table)

#: every lowering module; each declares ``LOWERS``
MODULES: tuple[ModuleType, ...] = (conv, convtranspose, gemm, elementwise, norm, batchnorm, pool, activation, shape,
                                   slicing, table, pad, resize)


def _converters(modules: tuple[ModuleType, ...]) -> dict[str, Callable]:
    out: dict[str, Callable] = {}
    owner: dict[str, str] = {}
    for module in modules:
        for op_type, lower in module.LOWERS.items():
            if op_type in out:
                raise ValueError(f"op {op_type!r} is lowered by both {owner[op_type]} and {module.__name__}")
            out[op_type], owner[op_type] = lower, module.__name__
    return out


CONVERTERS = _converters(MODULES)

#: converters that refuse int8 (QDQ) graphs outright: their ops run on the host in a quantized deployment
FLOAT_ONLY = frozenset().union(*(getattr(m, "FLOAT_ONLY", ()) for m in MODULES))
