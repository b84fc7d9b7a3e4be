"""The C++ Conv and Gemm kernels (packed pair product, depthwise planes, several images per product) equal the
NumPy engine's on random ops with edge shapes, with every tile kernel this CPU runs."""
import numpy as np
import pytest

from npuready.engine import cpp_engine, fixedpoint, numpy_engine
from npuready.engine.intgraph import IntOp

KINDS = cpp_engine.TILE_KINDS[:cpp_engine.TILE_KINDS.index(cpp_engine.tile_kind()) + 1]


@pytest.fixture(params=KINDS)
def tile(request):
    best = cpp_engine.tile_kind()
    assert cpp_engine.tile_kind(request.param) == request.param
    yield request.param
    cpp_engine.tile_kind(best)


def _channel_params(rng, o: int) -> dict:
    m0, shift = fixedpoint.conv_multipliers(0.03, rng.uniform(0.001, 0.02, o), rng.uniform(0.02, 0.5))
    return {"bias": rng.integers(-5000, 5000, o).astype(np.int32), "multiplier": m0, "shift": shift,
            "input_zero_point": int(rng.integers(-128, 128)), "output_zero_point": int(rng.integers(-128, 128)),
            "act_min": -128, "act_max": int(rng.choice([127, 60]))}


def _conv_op(rng, c, o, group, k, stride, dil, pads, rounding):
    weight = rng.integers(-127, 128, (o, c // group, *k)).astype(np.int8)
    params = {"weight": weight, "strides": list(stride), "dilations": list(dil), "pads": list(pads),
              "group": group, **_channel_params(rng, o)}
    return IntOp("conv", "Conv", ("x",), ("y",), params, rounding)


CONVS = [  # (c, o, group, kernel, stride, dilation, pads (t, l, b, r), h, w, images)
    (3, 16, 1, (3, 3), (2, 2), (1, 1), (1, 1, 1, 1), 17, 15, 3),      # stem: odd K (27), odd sizes
    (8, 5, 1, (1, 1), (1, 1), (1, 1), (0, 0, 0, 0), 4, 4, 70),        # pointwise: many images per product
    (7, 9, 1, (1, 1), (2, 2), (1, 1), (0, 0, 0, 0), 9, 9, 2),         # strided pointwise, rows not /4
    (6, 6, 1, (5, 3), (1, 3), (2, 1), (2, 0, 3, 1), 12, 13, 2),       # asymmetric kernel, pads, stride, dilation
    (16, 16, 2, (3, 3), (1, 1), (1, 1), (1, 1, 1, 1), 8, 8, 2),       # grouped
    (24, 24, 3, (3, 3), (2, 2), (1, 1), (0, 1, 1, 0), 9, 10, 3),      # grouped (regnet-like), uneven pads
    (12, 12, 12, (3, 3), (1, 1), (1, 1), (1, 1, 1, 1), 7, 9, 2),      # depthwise
    (10, 10, 10, (5, 5), (2, 2), (1, 1), (2, 2, 2, 2), 11, 8, 2),     # depthwise 5x5 stride 2
    (6, 6, 6, (3, 3), (1, 2), (2, 2), (2, 0, 1, 3), 6, 7, 1),         # depthwise dilated, uneven pads
    (4, 8, 4, (3, 3), (1, 1), (1, 1), (1, 1, 1, 1), 5, 5, 2),         # depthwise with channel multiplier 2
    (5, 4, 1, (3, 3), (1, 1), (1, 1), (0, 0, 0, 0), 3, 3, 4),         # one output pixel per image
    (2, 3, 1, (7, 7), (1, 1), (1, 1), (3, 3, 3, 3), 2, 2, 1),         # kernel larger than the image
    # few output pixels per image: conv.cpp takes the pixels as rows, the weights as columns
    (72, 40, 1, (1, 1), (1, 1), (1, 1), (0, 0, 0, 0), 1, 1, 1),       # squeeze-excite 1x1 plane, batch 1
    (33, 21, 1, (1, 1), (1, 1), (1, 1), (0, 0, 0, 0), 2, 2, 1),       # odd K, o not /16
    (7, 64, 1, (3, 3), (2, 2), (1, 1), (1, 1, 1, 1), 5, 6, 1),        # 3x3 padded stride 2 onto 3x3
    (5, 17, 1, (3, 3), (1, 1), (2, 2), (2, 1, 2, 0), 3, 4, 1),        # dilated, uneven pads
    (16, 300, 1, (1, 1), (1, 1), (1, 1), (0, 0, 0, 0), 1, 1, 70),     # one pixel, many images
]


@pytest.mark.parametrize("rounding", ["double", "single"])
@pytest.mark.parametrize("case", CONVS, ids=[f"conv{i}" for i in range(len(CONVS))])
def test_conv_kernel_equals_numpy(case, rounding, tile):
    c, o, group, k, stride, dil, pads, h, w, n = case
    rng = np.random.default_rng(CONVS.index(case))
    op = _conv_op(rng, c, o, group, k, stride, dil, pads, rounding)
    x = rng.integers(-128, 128, (n, c, h, w)).astype(np.int8)
    want = numpy_engine.run_op(op, [x])
    got = cpp_engine.run_op(op, [x])
    assert got.shape == want.shape
    assert np.array_equal(got, want)


@pytest.mark.parametrize("rounding", ["double", "single"])
@pytest.mark.parametrize("lead,k,o", [((1,), 1, 1), ((3,), 7, 5), ((17,), 192, 35), ((2, 17), 64, 16),
                                      ((40,), 33, 4), ((1,), 576, 1024), ((1,), 33, 21), ((5,), 64, 40)])
def test_gemm_kernel_equals_numpy(lead, k, o, rounding, tile):
    rng = np.random.default_rng(k * 31 + o)
    params = {"weight": rng.integers(-127, 128, (o, k)).astype(np.int8), **_channel_params(rng, o)}
    op = IntOp("fc", "Gemm", ("x",), ("y",), params, rounding)
    x = rng.integers(-128, 128, (*lead, k)).astype(np.int8)
    assert np.array_equal(cpp_engine.run_op(op, [x]), numpy_engine.run_op(op, [x]))


def test_extreme_codes_accumulate_exactly(tile):
    """All inputs -128 with zero point 127 and weights -127/127: the largest |product| the pair sum sees."""
    rng = np.random.default_rng(0)
    op = _conv_op(rng, 64, 8, 1, (3, 3), (1, 1), (1, 1), (1, 1, 1, 1), "double")
    op.params["weight"][:] = np.where(rng.random(op.params["weight"].shape) < 0.5, -127, 127)
    op.params["input_zero_point"] = 127
    x = np.full((2, 64, 5, 5), -128, np.int8)
    assert np.array_equal(cpp_engine.run_op(op, [x]), numpy_engine.run_op(op, [x]))


def _add_op(rng, rounding: str, sub: bool = False) -> IntOp:
    s1, s2, so = rng.uniform(0.01, 0.1, 3)
    twice = 2 * max(s1, s2)
    m1, sh1 = fixedpoint.quantize_multiplier(s1 / twice)
    m2, sh2 = fixedpoint.quantize_multiplier(s2 / twice)
    mo, sho = fixedpoint.quantize_multiplier(twice / ((1 << 20) * so))
    return IntOp("add", "Add", ("a", "b"), ("y",), {
        "input1_zero_point": int(rng.integers(-128, 128)), "input2_zero_point": int(rng.integers(-128, 128)),
        "left_shift": 20, "input1_multiplier": m1, "input1_shift": sh1, "input2_multiplier": -m2 if sub else m2,
        "input2_shift": sh2, "output_multiplier": mo, "output_shift": sho,
        "output_zero_point": int(rng.integers(-128, 128)), "act_min": -128, "act_max": 127}, rounding)


@pytest.mark.parametrize("rounding", ["double", "single"])
@pytest.mark.parametrize("shapes", [((5,), (5,)), ((2, 17, 768), (768,)), ((768,), (2, 17, 768)),
                                    ((2, 17, 192), (2, 17, 1)), ((4, 300), ()), ((3, 1, 40), (1, 20, 1))],
                         ids=["short", "bias-after", "bias-before", "per-row", "scalar", "both-broadcast"])
def test_add_equals_numpy_direct_and_by_tables(shapes, rounding):
    """Short tensors take the direct path, long ones (>= 512 elements) the per-code tables; both broadcast."""
    rng = np.random.default_rng(len(shapes[0]))
    for sub in (False, True):
        op = _add_op(rng, rounding, sub)
        a, b = (rng.integers(-128, 128, s).astype(np.int8) for s in shapes)
        want = numpy_engine.run_op(op, [a, b])
        assert np.array_equal(cpp_engine.run_op(op, [a, b]), want)


@pytest.mark.parametrize("rounding", ["double", "single"])
@pytest.mark.parametrize("size", [7, 1023, 1024, 5000])
@pytest.mark.parametrize("rescale", [True, False])
def test_rescale_equals_numpy_direct_and_by_table(size, rescale, rounding):
    rng = np.random.default_rng(size)
    m, s = fixedpoint.quantize_multiplier(float(rng.uniform(0.2, 3.0)))
    p = {"input_zero_point": int(rng.integers(-128, 128)), "multiplier": m, "shift": s,
         "output_zero_point": int(rng.integers(-128, 128))} if rescale else None
    x = rng.integers(-128, 128, size).astype(np.int8)
    for lo, hi in ((-128, 127), (-20, 90)):
        op = IntOp("r", "Rescale", ("x",), ("y",), {"rescale": p, "act_min": lo, "act_max": hi}, rounding)
        want = numpy_engine.run_op(op, [x])
        got = cpp_engine.run_op(op, [x])
        assert got.dtype == np.int8 and np.array_equal(got, want)


@pytest.mark.parametrize("rounding", ["double", "single"])
def test_requantize_run_equals_numpy_on_extreme_accumulators(rounding, tile):
    """The epilogue over runs (AVX2 eight at a time when the tile kind is AVX2, scalar otherwise) on int32
    accumulators up to the limits, multipliers up to 2^31 - 1 and shifts from 0 (single: -1) to -31."""
    rng = np.random.default_rng(7)
    n = 20003  # not a multiple of 8: the scalar tail runs too
    shift = -rng.integers(0 if rounding == "double" else 1, 32, n).astype(np.int32)  # AVX2's domain
    bits = np.minimum(31, 7 - shift.astype(np.int64))  # most results inside [-128, 127]: every rounding case is seen
    acc = rng.integers(-2**bits, 2**bits)
    acc[::11] = rng.integers(-2**31, 2**31, len(acc[::11]))  # and saturating ones
    acc[-9:] = [-2**31, 2**31 - 1, 0, -1, 1, 2**30, -2**30, 2**31 - 2, -2**31 + 1]
    acc = acc.astype(np.int32)
    bias = np.zeros(n, np.int32)
    bias[::5] = rng.integers(-2**20, 2**20, len(bias[::5]))
    bias[bias.astype(np.int64) + acc > 2**31 - 1] = 0  # no int32 wrap of acc + bias here (see the next test)
    bias[bias.astype(np.int64) + acc < -2**31] = 0
    mult = rng.integers(2**30, 2**31, n).astype(np.int32)
    mult[::7] = 2**31 - 1
    zp, lo, hi = 5, -128, 100
    y = np.empty(n, np.int8)
    cpp_engine.library().npr_requantize(acc, n, bias, mult, shift, zp, lo, hi,
                                        cpp_engine.ROUNDING_CODE[rounding], y)
    want = fixedpoint.requantize(acc.astype(np.int64) + bias, mult, shift, zp, lo, hi, rounding)
    assert np.array_equal(y, want)
    assert ((want > lo) & (want < hi)).mean() > 0.5  # the rounding, not the clamp, decides most codes


@pytest.mark.parametrize("rounding", ["double", "single"])
def test_requantize_run_where_acc_plus_bias_wraps_int32_matches_scalar(rounding):
    """A pathological bias that pushes acc + bias past int32: the AVX2 run gives the scalar twin's integers."""
    rng = np.random.default_rng(8)
    n = 64
    acc = rng.integers(2**30, 2**31, n).astype(np.int32)
    bias = np.full(n, 2**31 - 1, np.int32)
    mult = rng.integers(2**30, 2**31, n).astype(np.int32)
    shift = -rng.integers(1, 20, n).astype(np.int32)
    best = cpp_engine.tile_kind()
    out = {}
    try:
        for kind in KINDS:
            cpp_engine.tile_kind(kind)
            y = np.empty(n, np.int8)
            cpp_engine.library().npr_requantize(acc, n, bias, mult, shift, 0, -128, 127,
                                                cpp_engine.ROUNDING_CODE[rounding], y)
            out[kind] = y
    finally:
        cpp_engine.tile_kind(best)
    assert all(np.array_equal(out["scalar"], y) for y in out.values())


@pytest.mark.parametrize("rounding", ["double", "single"])
@pytest.mark.parametrize("scales", [(0.05, 0.02, 0.01), (0.05, 0.02, 0.0005)], ids=["shift<0", "shift>0"])
@pytest.mark.parametrize("shapes", [((7,), (7,)), ((2, 17, 768), (2, 17, 768)), ((3, 1100), ()),
                                    ((2, 17, 192), (2, 17, 1))], ids=["short", "long", "scalar", "per-row"])
def test_mul_equals_numpy(shapes, scales, rounding, tile):
    rng = np.random.default_rng(11)
    m, s = fixedpoint.mul_multiplier(*scales)
    op = IntOp("mul", "Mul", ("a", "b"), ("y",), {
        "input1_zero_point": int(rng.integers(-128, 128)), "input2_zero_point": int(rng.integers(-128, 128)),
        "multiplier": m, "shift": s, "output_zero_point": int(rng.integers(-128, 128)), "act_min": -128,
        "act_max": 127}, rounding)
    a, b = (rng.integers(-128, 128, sh).astype(np.int8) for sh in shapes)
    assert np.array_equal(cpp_engine.run_op(op, [a, b]), numpy_engine.run_op(op, [a, b]))
