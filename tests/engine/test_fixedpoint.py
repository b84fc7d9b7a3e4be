"""Fixed-point primitives against exact integer arithmetic (Python ints and Fractions) on random values."""
from fractions import Fraction

import numpy as np
import pytest

from npuready.engine import fixedpoint as fp

RNG = np.random.default_rng(1234)
I32 = (fp.INT32_MIN, fp.INT32_MAX)


def _round_half_away(fr: Fraction) -> int:
    """Exact round-to-nearest, ties away from zero."""
    n = abs(fr)
    q = int(n)  # floor of a non-negative fraction
    if n - q >= Fraction(1, 2):
        q += 1
    return q if fr >= 0 else -q


def _srdhm_exact(a: int, b: int) -> int:
    if a == b == fp.INT32_MIN:
        return fp.INT32_MAX
    return (Fraction(a * b, 1 << 31) + Fraction(1, 2)).__floor__()  # gemmlowp: ties toward +inf


def _rdbpot_exact(x: int, e: int) -> int:
    return _round_half_away(Fraction(x, 1 << e))


def _ints(n, lo=fp.INT32_MIN, hi=fp.INT32_MAX):
    return RNG.integers(lo, hi, size=n, endpoint=True, dtype=np.int64)


def test_srdhm_matches_exact_rounding_on_random_and_edge_values():
    a = np.concatenate([_ints(4000), [fp.INT32_MIN, fp.INT32_MIN, fp.INT32_MAX, 0, 1, -1, 1 << 30]])
    b = np.concatenate([_ints(4000), [fp.INT32_MIN, fp.INT32_MAX, fp.INT32_MAX, 5, 1 << 30, 1 << 30, 1]])
    got = fp.saturating_rounding_doubling_high_mul(a, b)
    want = [_srdhm_exact(int(x), int(y)) for x, y in zip(a, b)]
    assert got.dtype == np.int32
    assert got.tolist() == want
    assert int(fp.saturating_rounding_doubling_high_mul(fp.INT32_MIN, fp.INT32_MIN)) == fp.INT32_MAX


def test_srdhm_ties_round_toward_positive_infinity():
    # a*b = ±2^30 is exactly half of 2^31: gemmlowp's nudge rounds +0.5 up and -0.5 up (to 0).
    assert int(fp.saturating_rounding_doubling_high_mul(1 << 15, 1 << 15)) == 1
    assert int(fp.saturating_rounding_doubling_high_mul(-(1 << 15), 1 << 15)) == 0
    assert int(fp.saturating_rounding_doubling_high_mul(-(1 << 15) - 1, 1 << 15)) == -1


def test_rounding_divide_by_pot_matches_exact_rounding():
    x = np.concatenate([_ints(3000), [-5, -4, -3, 3, 4, 5, -1, 1, 0]])
    e = RNG.integers(0, 31, size=x.size, endpoint=True)
    got = fp.rounding_divide_by_pot(x, e)
    assert got.tolist() == [_rdbpot_exact(int(a), int(b)) for a, b in zip(x, e)]
    assert fp.rounding_divide_by_pot([-5, -3, 3, 5], 1).tolist() == [-3, -2, 2, 3]  # ties away from zero


def test_rounding_divide_by_pot_rejects_bad_exponent():
    with pytest.raises(ValueError):
        fp.rounding_divide_by_pot(3, 32)


def test_double_rounding_is_srdhm_then_rdbpot_per_channel():
    x = _ints(2000, -(1 << 24), 1 << 24)
    m = RNG.integers(1 << 30, (1 << 31) - 1, size=x.size, endpoint=True)
    s = RNG.integers(-20, 0, size=x.size, endpoint=True)
    got = fp.multiply_by_quantized_multiplier(x, m, s, "double")
    want = [_rdbpot_exact(_srdhm_exact(int(a), int(b)), -int(c)) for a, b, c in zip(x, m, s)]
    assert got.tolist() == want


def test_double_rounding_left_shift():
    x = _ints(500, -(1 << 20), 1 << 20)
    m = RNG.integers(1 << 30, (1 << 31) - 1, size=x.size, endpoint=True)
    got = fp.multiply_by_quantized_multiplier(x, m, 3, "double")
    assert got.tolist() == [_srdhm_exact(int(a) * 8, int(b)) for a, b in zip(x, m)]


def test_single_rounding_is_one_half_up_rounding_of_exact_product():
    x = _ints(3000, -(1 << 24), 1 << 24)
    m = RNG.integers(1 << 30, (1 << 31) - 1, size=x.size, endpoint=True)
    s = RNG.integers(-20, 2, size=x.size, endpoint=True)
    got = fp.multiply_by_quantized_multiplier(x, m, s, "single")
    want = []
    for a, b, c in zip(x, m, s):
        fr = Fraction(int(a) * int(b), 1 << (31 - int(c)))
        want.append(int((fr + Fraction(1, 2)).__floor__()))
    assert got.tolist() == want


def test_roundings_differ_on_some_values_and_by_at_most_one():
    x = _ints(20000, -(1 << 22), 1 << 22)
    m = RNG.integers(1 << 30, (1 << 31) - 1, size=x.size, endpoint=True)
    d = fp.multiply_by_quantized_multiplier(x, m, -9, "double").astype(np.int64)
    s = fp.multiply_by_quantized_multiplier(x, m, -9, "single").astype(np.int64)
    diff = np.abs(d - s)
    assert diff.max() == 1
    assert int((diff == 1).sum()) > 0


def test_quantize_multiplier_recomposes_the_real_value():
    reals = np.exp(RNG.uniform(np.log(1e-6), np.log(50.0), size=500))
    for r in reals:
        m0, shift = fp.quantize_multiplier(float(r))
        assert (1 << 30) <= m0 < (1 << 31)
        approx = Fraction(m0) * Fraction(2) ** (shift - 31)
        assert abs(approx - Fraction(float(r))) <= Fraction(2) ** (shift - 32)
    assert fp.quantize_multiplier(0.0) == (0, 0)
    assert fp.quantize_multiplier(0.5) == (1 << 30, 0)
    assert fp.quantize_multiplier(1.0) == (1 << 30, 1)
    assert fp.quantize_multiplier(2.0 ** -40) == (0, 0)
    # rounding up to 2^31 renormalises
    assert fp.quantize_multiplier(1.0 - 2.0 ** -40) == (1 << 30, 1)


def test_rounding_divide_truncates_like_c_after_nudge():
    acc = _ints(3000, -100000, 100000)
    n = RNG.integers(1, 64, size=acc.size, endpoint=True)
    got = fp.rounding_divide(acc, n)
    want = []
    for a, c in zip(acc.tolist(), n.tolist()):
        num = a + c // 2 if a > 0 else a - c // 2
        q = abs(num) // c
        want.append(-q if num < 0 else q)
    assert got.tolist() == want


def test_quantize_float_roundings():
    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997], dtype=np.float32)
    assert fp.quantize_float(x, 1.0, 0, mode="half_even").tolist() == [0, 2, 2, 0, -2, 0]
    assert fp.quantize_float(x, 1.0, 0, mode="half_away").tolist() == [1, 2, 3, -1, -3, 0]
    assert fp.quantize_float([1000.0, -1000.0], 1.0, 3).tolist() == [127, -128]


def test_requantize_clamps_and_adds_zero_point():
    m0, sh = fp.quantize_multiplier(0.25)
    out = fp.requantize([4, -4, 10000, -10000], m0, sh, zero_point=-10, lo=-128, hi=127)
    assert out.tolist() == [-9, -11, 127, -128]


def test_isqrt_is_exact_floor():
    v = np.concatenate([RNG.integers(0, (1 << 62) - 1, size=3000, dtype=np.int64), [0, 1, 2, 3, 4, (1 << 62) - 1]])
    import math

    assert fp.isqrt(v).tolist() == [math.isqrt(int(a)) for a in v]


def test_mean_multiplier_folds_the_count():
    m, s = fp.quantize_multiplier(0.8)
    m2, s2 = fp.mean_multiplier(m, s, 49)
    assert (m2, s2) == ((m << 5) // 49, s - 5)


def test_tflite_logistic_lut_is_the_float32_table_with_ties_away_from_zero():
    t = fp.tflite_logistic_lut(0.1, 3).astype(int)
    assert t.shape == (256,)
    assert np.all(np.diff(t) >= 0)  # monotone
    assert t[3 + 128] == 0  # logistic(0) = 0.5 -> 0.5 * 256 - 128
    assert t[0] == -128 and t[-1] == 127  # x = -13.1 and +12.4 saturate
    x = (np.arange(-128, 128) - 3) * 0.1
    ideal = np.clip(np.round(1 / (1 + np.exp(-x)) * 256) - 128, -128, 127)
    assert np.abs(t - ideal).max() <= 1


def test_a_wide_input_scale_saturates_the_logistic_table_without_an_overflow_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PP-OCR's detector: exp(-x) overflows float32 at x < -88.7
        t = fp.tflite_logistic_lut(1.0, 0).astype(int)
    assert t[0] == -128 and t[-1] == 127 and t[128] == 0


def test_tflite_float_table_rounds_ties_away_from_zero():
    t = fp.tflite_float_table(lambda v: v, 0.5, 0, 1.0, 0)  # y = q / 2: ties at every odd code
    assert t[1 + 128] == 1 and t[-1 + 128] == -1 and t[3 + 128] == 2 and t[-3 + 128] == -2


def test_count_leading_zeros32():
    x = np.concatenate([RNG.integers(1, (1 << 32) - 1, size=2000, dtype=np.int64), [0, 1, (1 << 31), (1 << 32) - 1]])
    assert fp.count_leading_zeros32(x).tolist() == [32 - int(v).bit_length() for v in x]


def test_tflite_softmax_row_of_equal_codes_is_uniform():
    table, bits = fp.tflite_softmax_params(0.05)
    y = fp.tflite_softmax(np.zeros((1, 4), np.int8), table, bits)
    assert y.tolist() == [[-64, -64, -64, -64]]  # 1/4 at scale 1/256, zero point -128


def test_mul_and_batch_matmul_multipliers_follow_litert_float32_arithmetic():
    """mul.cc evaluates s1*s2/s_out in float32; BATCH_MATMUL rounds the scale product to float32 and divides in
    double. Both differ from the all-double formula in the low bits of M0 — enough to flip rare codes."""
    s1, s2, so = 0.0123456789, 0.0456789123, 0.0078901234
    f32 = np.float32
    assert fp.mul_multiplier(s1, s2, so) == fp.quantize_multiplier(float(f32(f32(s1) * f32(s2)) / f32(so)))
    assert fp.matmul_multiplier(s1, s2, so) == fp.quantize_multiplier(float(f32(f32(s1) * f32(s2))) / float(f32(so)))
    exact = fp.quantize_multiplier(float(f32(s1)) * float(f32(s2)) / float(f32(so)))
    assert fp.mul_multiplier(s1, s2, so)[0] != exact[0] and fp.matmul_multiplier(s1, s2, so)[0] != exact[0]
    assert fp.mul_multiplier(s1, s2, so)[1] == exact[1]
