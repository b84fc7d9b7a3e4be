"""Integer kernels, one module per op with the same skeleton: params (build), checks, loop, epilogue (run).

``OPS`` maps an ONNX op type to the module that exports it; ``KERNELS`` maps an integer-graph op kind
to the module that runs it. Explicit dicts, no scanning.
"""
from __future__ import annotations

from npuready.engine.ops import (add, avgpool, batchnorm, concat, constant, conv, convtranspose, float_island, gather,
                                 gemm, layernorm, lut, matmul, maxpool, mean, mul, pad, prelu, quantize, reshape,
                                 rescale, resize, slice, softmax, split, transpose)

#: ONNX op type -> module with ``build(builder, node) -> IntOp``
OPS = {
    "Conv": conv, "Gemm": gemm, "MatMul": gemm, "Add": add, "Mul": mul, "Concat": concat,
    "MaxPool": maxpool, "AveragePool": avgpool, "GlobalAveragePool": mean, "ReduceMean": mean,
    "Reshape": reshape, "Flatten": reshape, "Squeeze": reshape, "Unsqueeze": reshape, "Transpose": transpose,
    "Relu": rescale, "Clip": rescale, "Gather": gather, "Softmax": softmax, "LayerNormalization": layernorm,
    "Sub": add, "Slice": slice, "Pad": pad, "PRelu": prelu, "Split": split, "Resize": resize, "Div": mul,
    "BatchNormalization": batchnorm, "ConvTranspose": convtranspose,
    "Pow": lut,  # by a constant scalar only: a table (a decomposed LayerNorm's (v + eps)^-1/2)
    **{name: lut for name in lut.OPS},
}
# Div/Mul/Add/Sub/Pow by a plain float scalar join a lookup-table chain (lut.is_unary) before this lookup.

#: ONNX op type -> further kernel modules its ``build`` may emit (MatMul of two activations, Split as slices)
EMITS = {"MatMul": (matmul,), "Split": (slice,)}

#: integer op kind -> module with ``run(op, inputs) -> int8 array``
KERNELS = {
    "Quantize": quantize, "Conv": conv, "Gemm": gemm, "Add": add, "Mul": mul, "Concat": concat,
    "MaxPool": maxpool, "AveragePool": avgpool, "Mean": mean, "Reshape": reshape, "Transpose": transpose,
    "Rescale": rescale, "Lut": lut, "Constant": constant, "Gather": gather, "MatMul": matmul,
    "Softmax": softmax, "LayerNorm": layernorm, "Slice": slice, "Resize": resize, "Pad": pad,
    "PRelu": prelu, "ResizeBilinear": resize, "BatchNorm": batchnorm,
    "ConvTranspose": convtranspose,
    float_island.KIND: float_island,  # a layer a mixed-precision build keeps in float (quant.keep_float)
}
