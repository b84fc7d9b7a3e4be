"""The native weight codec (npuready.cost.native.codec) against the NumPy reference (npuready.cost.weight_codec,
weight_stream.weight_order): equal sizes on hand-made edge cases, with both search kernels, and an equal weight
order for every traversal."""
import numpy as np
import pytest

from npuready.cost.native import codec
from npuready.cost.weight_codec import MAX_SLICE, SECTION, stream_bytes
from npuready.cost.weight_stream import DEPTH_FIRST, DEPTHWISE, PART_KERNEL, weight_order

pytestmark = pytest.mark.skipif(not codec.available(), reason="no C++ compiler for the native codec")


def edge_streams():
    """Named streams that reach each branch of the palette, the search and the slice loop."""
    rng = np.random.default_rng(0)
    lone_one = np.zeros(100_000, dtype=np.int64)
    lone_one[0] = 1
    yield "empty", np.zeros(0, dtype=np.int64)
    for v in (0, 1, 5, -1, -255, 255):
        yield f"single {v}", np.array([v])
    yield "two zeros", np.zeros(2, dtype=np.int64)
    yield "all zeros, one section", np.zeros(SECTION, dtype=np.int64)
    yield "all zeros, a section and one", np.zeros(SECTION + 1, dtype=np.int64)
    yield "one value repeated (palette of one, padded with 0)", np.full(1000, 7)
    yield "32 distinct values (full palette)", np.resize(np.arange(-16, 16), 4000)
    yield "33 distinct values (no palette)", np.resize(np.arange(-16, 17), 4000)
    yield "isolated zeros only", np.resize([0, 3], 5001)
    yield "zero pairs, half the zeros in runs", np.resize([0, 0, 5, 0, 5, 6], 6000)
    yield "zeros just 5 x the commonest value", np.resize([0] * 5 + [9], 6000)
    yield "zeros just over 5 x the commonest value", np.resize([0] * 6 + [9] + [0] * 5 + [8], 6000)
    yield "a zero run longer than a slice", lone_one
    yield "one setting for more than a slice", rng.integers(0, 4, 3 * MAX_SLICE + 5)
    yield "magnitudes up to 255 (uncompressed setting)", rng.integers(-255, 256, 20_000)
    yield "large values, then small", np.concatenate([rng.integers(-255, 256, 300), rng.integers(-2, 3, 3000)])
    yield "sparse int8", np.where(rng.random(50_000) < 0.8, 0, rng.integers(-127, 128, 50_000))
    yield "laplace int8 over two sections", np.round(rng.laplace(0, 6, 2 * SECTION + 17)).clip(-127, 127)
    yield "uniform int8, exactly two sections", rng.integers(-127, 128, 2 * SECTION)
    for scale in (0.3, 3, 40):
        yield f"laplace scale {scale}", np.round(rng.laplace(0, scale, 30_000)).clip(-127, 127)


@pytest.mark.parametrize("kind", codec.KINDS)
def test_native_sizes_equal_the_reference_on_edge_cases(kind):
    if kind == "avx2" and codec.kind("avx2") != "avx2":
        pytest.skip("this CPU has no AVX2")
    try:
        assert codec.kind(kind) == kind
        for name, values in edge_streams():
            assert codec.stream_bytes(values) == stream_bytes(values), name
    finally:
        codec.kind("avx2")  # back to the widest kernel the CPU runs (scalar where it has no AVX2)


def test_values_outside_the_codec_domain_are_refused():
    with pytest.raises(ValueError, match="-255..255"):
        codec.stream_bytes(np.array([0, 256]))
    with pytest.raises(ValueError, match="int8"):
        codec.layer_bytes(np.zeros((1, 1, 1, 1), dtype=np.float32), 8, DEPTH_FIRST)


ORDER_CASES = [  # (O, H, W, I), OFM block depth, traversal, OFM micro-block depth, dilation
    ((2, 1, 1, 3), 16, DEPTH_FIRST, 8, (1, 1)),
    ((37, 3, 3, 45), 16, DEPTH_FIRST, 8, (1, 1)),
    ((37, 3, 3, 45), 32, DEPTH_FIRST, 16, (1, 1)),
    ((20, 3, 3, 13), 8, PART_KERNEL, 8, (1, 1)),
    ((64, 7, 7, 3), 16, PART_KERNEL, 8, (1, 1)),
    ((24, 11, 9, 5), 24, PART_KERNEL, 8, (1, 1)),
    ((30, 3, 3, 1), 16, DEPTHWISE, 8, (1, 1)),
    ((30, 5, 5, 1), 32, DEPTHWISE, 16, (1, 1)),
    ((16, 3, 3, 16), 16, DEPTH_FIRST, 8, (2, 2)),
    ((16, 9, 9, 8), 16, DEPTH_FIRST, 8, (2, 1)),
    ((1000, 1, 1, 96), 64, DEPTH_FIRST, 8, (1, 1)),
]


@pytest.mark.parametrize("shape,depth,how,ublock,dilation", ORDER_CASES)
def test_native_weight_order_and_size_equal_the_reference(shape, depth, how, ublock, dilation):
    w = np.random.default_rng(sum(shape)).integers(-127, 128, shape).astype(np.int8)
    w[: shape[0] // 3] = 0  # some all-zero output channels: zero runs across the order
    ref = weight_order(w, depth, how, ublock, dilation=dilation)
    got = codec.weight_order(w, depth, how, ublock, dilation=dilation)
    assert got.dtype == np.int16 and np.array_equal(got, ref)
    assert codec.layer_bytes(w, depth, how, ublock, dilation=dilation) == stream_bytes(ref)
