"""Op families: named sets of ONNX op types that several stages ask about, declared once and composed.

Each stage takes the family it means (or a union of families, spelled out where it is used, as Vela composes
its operator sets) instead of keeping its own literal list: the lists had drifted (Dropout in one
nondeterministic list and not the others; two post-processing lists).
"""
from __future__ import annotations

# ----- values known only at run time ----------------------------------------------------------
#: ops whose output is not a function of their inputs: never folded at compile time
RANDOM = frozenset({"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial",
                    "Bernoulli"})
#: random only in training mode (``training_mode`` input); the importer removes the inference-mode ones
TRAINING_RANDOM = frozenset({"Dropout"})
#: ops whose value follows from a tensor's shape alone
SHAPE_SOURCES = frozenset({"Shape", "Size"})

# ----- multiply-accumulate ---------------------------------------------------------------------
CONV = frozenset({"Conv", "ConvTranspose"})
MATMUL = frozenset({"Gemm", "MatMul"})
#: the float ops a MAC array runs (Conv, ConvTranspose, Gemm, MatMul)
MAC = CONV | MATMUL
#: their integer forms as quantisers other than QDQ write them
QUANTIZED_CONV = frozenset({"ConvInteger", "QLinearConv"})
QUANTIZED_MATMUL = frozenset({"MatMulInteger", "QLinearMatMul"})

# ----- element-wise ---------------------------------------------------------------------------
#: the four arithmetic operators
ARITHMETIC = frozenset({"Add", "Sub", "Mul", "Div"})
#: binary (or variadic) element-wise ops the NPU runs as one elementwise pass
ELEMENTWISE_BINARY = ARITHMETIC | {"Max", "Min", "Pow", "Sum", "Mean", "BitShift"}
#: activations that are piecewise linear in their input (exact on int8 codes without a table)
PIECEWISE_LINEAR = frozenset({"Relu", "Clip", "LeakyRelu", "PRelu"})

# ----- post-processing ------------------------------------------------------------------------
#: decoding a detector's or classifier's scores into a selection (kept out of the exported graph)
SELECTION = frozenset({"NonMaxSuppression", "TopK", "ArgMax", "ArgMin", "NonZero"})
#: the score activations a head ends with
SCORES = frozenset({"Sigmoid", "Softmax"})
#: gathers of selected rows
GATHERS = frozenset({"Gather", "GatherElements", "GatherND"})
#: what a graph's tail may hold that runs on the host as post-processing
POSTPROCESS = SELECTION | SCORES | GATHERS | {"ReduceMax"}

# ----- shape and data movement ----------------------------------------------------------------
#: ops that only change a tensor's shape, not its values or their order in memory
RESHAPE = frozenset({"Reshape", "Flatten", "Squeeze", "Unsqueeze"})
#: ops that move or copy values without arithmetic
DATA_MOVEMENT = RESHAPE | GATHERS | SHAPE_SOURCES | {"Concat", "Split", "Slice", "Identity", "Expand", "Tile"}
