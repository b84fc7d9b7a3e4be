"""Explicit table: ONNX op type (default domain) → converter ``f(ctx, node)``."""
from __future__ import annotations

from npuready.tflite.ops.activation import lower_activation, lower_prelu, lower_softmax
from npuready.tflite.ops.conv import lower_conv
from npuready.tflite.ops.convtranspose import lower_convtranspose
from npuready.tflite.ops.batchnorm import lower_batchnorm
from npuready.tflite.ops.elementwise import lower_binary
from npuready.tflite.ops.gemm import lower_gemm, lower_matmul
from npuready.tflite.ops.norm import lower_div, lower_layernorm
from npuready.tflite.ops.pool import lower_global_pool, lower_pool, lower_reduce
from npuready.tflite.ops.shape import lower_concat, lower_identity, lower_reshape, lower_transpose
from npuready.tflite.ops.pad import lower_pad
from npuready.tflite.ops.resize import lower_resize
from npuready.tflite.ops.table import lower_pow, lower_table
from npuready.tflite.ops.slicing import lower_gather, lower_slice, lower_split

CONVERTERS = {
    "Conv": lower_conv,
    "ConvTranspose": lower_convtranspose,
    "Gemm": lower_gemm,
    "MatMul": lower_matmul,
    "Add": lower_binary,
    "Sub": lower_binary,
    "Mul": lower_binary,
    "Div": lower_div,  # Div, or the head of Div→Erf→Add→Mul→Mul (exact GELU)
    "Max": lower_binary,
    "Min": lower_binary,
    "BatchNormalization": lower_batchnorm,
    "LayerNormalization": lower_layernorm,
    "MaxPool": lower_pool,
    "AveragePool": lower_pool,
    "GlobalAveragePool": lower_global_pool,
    "GlobalMaxPool": lower_global_pool,
    "ReduceMean": lower_reduce,
    "ReduceMax": lower_reduce,
    "Relu": lower_activation,
    "Clip": lower_activation,
    "Sigmoid": lower_activation,
    "Tanh": lower_activation,
    "HardSwish": lower_activation,
    "LeakyRelu": lower_activation,
    "Gelu": lower_activation,
    "Softmax": lower_softmax,
    "Reshape": lower_reshape,
    "Flatten": lower_reshape,
    "Squeeze": lower_reshape,
    "Unsqueeze": lower_reshape,
    "Transpose": lower_transpose,
    "Concat": lower_concat,
    "Gather": lower_gather,
    "Slice": lower_slice,
    "HardSigmoid": lower_table,
    "Erf": lower_table,
    "Elu": lower_table,
    "Pow": lower_pow,  # by a constant scalar (a decomposed LayerNorm's (v + eps)^-1/2)
    "Split": lower_split,
    "Pad": lower_pad,
    "PRelu": lower_prelu,
    "Resize": lower_resize,
    "Identity": lower_identity,
    "Dropout": lower_identity,
}

#: converters that refuse int8 (QDQ) graphs outright: their ops run on the host in a quantized deployment
FLOAT_ONLY = frozenset({"LayerNormalization"})
