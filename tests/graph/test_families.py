"""The op families: exact members, and every stage's set is the family (or the union) it names, not a copy."""
from npuready.cost import lowering, model
from npuready.graph import constant_budget, families, fold
from npuready.intake import risks
from npuready.intake.prescribe import POSTPROCESS_OPS as INTAKE_POSTPROCESS
from npuready.lint import data_dependent
from npuready.lint.rules import r003_3d_ops, r004_tiling
from npuready.partition import inventory, macs
from npuready.runtime.export import POSTPROCESS_OPS as RUNTIME_POSTPROCESS


def test_members():
    assert families.MAC == {"Conv", "ConvTranspose", "Gemm", "MatMul"}
    assert families.RANDOM == {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
                               "Multinomial", "Bernoulli"}
    assert families.POSTPROCESS == {"NonMaxSuppression", "TopK", "ArgMax", "ArgMin", "NonZero", "Sigmoid",
                                    "Softmax", "ReduceMax", "Gather", "GatherElements", "GatherND"}
    assert families.ELEMENTWISE_BINARY == {"Add", "Sub", "Mul", "Div", "Max", "Min", "Pow", "Sum", "Mean",
                                           "BitShift"}
    assert families.DATA_MOVEMENT == {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Concat", "Split", "Slice",
                                      "Gather", "GatherElements", "GatherND", "Identity", "Expand", "Tile", "Shape",
                                      "Size"}


def test_stages_use_the_families():
    assert fold.NONDETERMINISTIC is families.RANDOM
    assert constant_budget.NONDETERMINISTIC is families.RANDOM
    assert fold.SHAPE_SOURCES is families.SHAPE_SOURCES
    # lint does not read a Dropout's training_mode: it never treats one as compile-time
    assert data_dependent.NONDETERMINISTIC == families.RANDOM | {"Dropout"}
    assert macs.MAC_OPS is families.MAC and risks.WEIGHTED is families.MAC
    assert r004_tiling.CONV_LIKE == {"Conv", "ConvTranspose", "ConvInteger", "QLinearConv"}
    assert r004_tiling.MATMUL_LIKE == {"Gemm", "MatMul", "MatMulInteger", "QLinearMatMul"}
    assert r003_3d_ops.CONV_OPS == r004_tiling.CONV_LIKE | {"DeformConv"}
    assert model.BINARY_OPS is families.ELEMENTWISE_BINARY
    assert model.FUSING_PRODUCERS == families.MAC | {"BatchNormalization", "Add"}
    assert lowering.OUTPUT_STAGE_OPS == families.MAC | {"Add", "Sub", "Mul"}
    assert INTAKE_POSTPROCESS is families.POSTPROCESS
    assert RUNTIME_POSTPROCESS == families.SELECTION | families.SCORES
    assert inventory._DATA_MOVEMENT is families.DATA_MOVEMENT and inventory._ARITH is families.ARITHMETIC
    assert risks.PIECEWISE_LINEAR is families.PIECEWISE_LINEAR
