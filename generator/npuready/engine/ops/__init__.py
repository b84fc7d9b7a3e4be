"""Integer kernels, one module per op with the same skeleton: params (build), checks, loop, epilogue (run).

Each module declares itself once (``DESCRIPTOR``, ``engine.ops.descriptor``); the registries are built from
those declarations over the explicit module list below (no scanning). ``OPS`` maps an ONNX op type to the module
that exports it; ``KERNELS`` maps an integer-graph op kind to the module that runs it; ``EMITS`` maps an ONNX op
type to the further kernel modules its ``build`` may emit (MatMul of two activations, Split as slices).
"""
from __future__ import annotations

from types import ModuleType

from npuready.engine.ops import (add, avgpool, batchnorm, concat, constant, conv, convtranspose, float_island, gather,
                                 gemm, layernorm, lut, matmul, maxpool, mean, mul, pad, prelu, quantize, reshape,
                                 rescale, resize, slice, softmax, split, transpose)

#: every op module; each declares ``DESCRIPTOR``
MODULES: tuple[ModuleType, ...] = (
    conv, gemm, add, mul, concat, maxpool, avgpool, mean, reshape, transpose, rescale, gather, softmax, layernorm,
    slice, pad, prelu, split, resize, batchnorm, convtranspose, lut, quantize, constant, matmul, float_island,
)


def _claims(attribute: str) -> dict[str, ModuleType]:
    out: dict[str, ModuleType] = {}
    for module in MODULES:
        for name in getattr(module.DESCRIPTOR, attribute):
            if name in out:
                raise ValueError(f"{attribute} {name!r} is declared by both {out[name].__name__} and {module.__name__}")
            out[name] = module
    return out


#: ONNX op type -> module with ``build(builder, node) -> IntOp``
OPS = _claims("onnx_types")
# Div/Mul/Add/Sub/Pow by a plain float scalar join a lookup-table chain (lut.is_unary) before this lookup.

#: integer op kind -> module with ``run(op, inputs) -> int8 array``
KERNELS = _claims("kinds")

#: ONNX op type -> further kernel modules its ``build`` may emit
EMITS = {onnx_type: (KERNELS[kind],) for module in MODULES for onnx_type, kind in module.DESCRIPTOR.emits}
