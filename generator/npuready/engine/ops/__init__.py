"""Integer kernels, one module per op with the same skeleton: params (build), checks, loop, epilogue (run).

``OPS`` maps an ONNX op type to the module that exports it; ``KERNELS`` maps an integer-graph op kind
to the module that runs it. Explicit dicts, no scanning.
"""
from __future__ import annotations

from npuready.engine.ops import (add, avgpool, concat, conv, gemm, lut, maxpool, mean, mul, quantize, reshape,
                                 rescale, transpose)

#: ONNX op type -> module with ``build(builder, node) -> IntOp``
OPS = {
    "Conv": conv, "Gemm": gemm, "MatMul": gemm, "Add": add, "Mul": mul, "Concat": concat,
    "MaxPool": maxpool, "AveragePool": avgpool, "GlobalAveragePool": mean, "ReduceMean": mean,
    "Reshape": reshape, "Flatten": reshape, "Squeeze": reshape, "Unsqueeze": reshape, "Transpose": transpose,
    "Relu": rescale, "Clip": rescale,
    **{name: lut for name in lut.OPS},
}

#: integer op kind -> module with ``run(op, inputs) -> int8 array``
KERNELS = {
    "Quantize": quantize, "Conv": conv, "Gemm": gemm, "Add": add, "Mul": mul, "Concat": concat,
    "MaxPool": maxpool, "AveragePool": avgpool, "Mean": mean, "Reshape": reshape, "Transpose": transpose,
    "Rescale": rescale, "Lut": lut,
}
