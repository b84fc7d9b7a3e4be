"""All fixed-point arithmetic of the integer engine: the ONLY place where rounding happens.

Semantics follow TFLite's reference kernels (``tensorflow/lite/kernels/internal/common.h`` and
gemmlowp's ``fixedpoint.h``), written here from their documented behaviour and checked against
exact integer arithmetic (Python ints / ``fractions.Fraction``) in tests/engine/test_fixedpoint.py.

Every function is vectorised over NumPy arrays (int64 internally, int32 results) and broadcasts
per-channel multipliers and shifts. The rounding of a requantisation is a named parameter, one of
``ROUNDINGS``; it is recorded per op in the integer graph and in every result — never a build flag.

- ``"double"``: gemmlowp double rounding — SaturatingRoundingDoublingHighMul followed by
  RoundingDivideByPOT (TFLite's default build, ``TFLITE_SINGLE_ROUNDING=0``).
- ``"single"``: one rounding of the exact 64-bit product, half rounded up
  (TFLite built with ``TFLITE_SINGLE_ROUNDING=1``, also what many NPUs implement).
"""
from __future__ import annotations

import math

import numpy as np

INT32_MIN = -(1 << 31)
INT32_MAX = (1 << 31) - 1

#: Declared rounding modes: name -> one-line description (recorded in graphs and results).
ROUNDINGS: dict[str, str] = {
    "double": "gemmlowp double rounding: SaturatingRoundingDoublingHighMul then RoundingDivideByPOT "
              "(ties toward +inf, then ties away from zero)",
    "single": "single rounding of the exact 64-bit product x*M0 / 2^(31-shift), ties rounded up",
}
DEFAULT_ROUNDING = "double"

#: Rounding profiles: name -> {integer op kind or "*": rounding}. A graph declares one profile; each op
#: records the rounding it resolves to. "tflite-ref" is what LiteRT 2.3's BUILTIN_REF kernels do
#: (measured: FULLY_CONNECTED rounds once, every other int8 kernel uses gemmlowp double rounding).
ROUNDING_PROFILES: dict[str, dict[str, str]] = {
    "tflite-ref": {"Gemm": "single", "*": "double"},
    "double": {"*": "double"},
    "single": {"*": "single"},
}
DEFAULT_PROFILE = "tflite-ref"


def resolve_rounding(profile: str, kind: str) -> str:
    """The rounding an op of ``kind`` uses under ``profile`` (a profile name or a plain rounding name)."""
    if profile in ROUNDINGS:
        return profile
    table = ROUNDING_PROFILES[profile]
    return table.get(kind, table["*"])


def _i64(x) -> np.ndarray:
    return np.asarray(x, dtype=np.int64)


def saturating_rounding_doubling_high_mul(a, b) -> np.ndarray:
    """gemmlowp SaturatingRoundingDoublingHighMul: floor(a*b / 2^31 + 1/2) (ties toward +inf), saturating.

    The only overflow case, a == b == INT32_MIN, returns INT32_MAX.
    """
    a, b = _i64(a), _i64(b)
    # gemmlowp adds 2^30 (or 1 - 2^30 when a*b < 0) and divides by 2^31 truncating toward zero; both
    # cases equal floor((a*b + 2^30) / 2^31), which an arithmetic shift computes directly.
    q = (a * b + (1 << 30)) >> 31
    overflow = (a == INT32_MIN) & (b == INT32_MIN)
    if np.any(overflow):
        q = np.where(overflow, np.int64(INT32_MAX), q)
    return q.astype(np.int32)


def rounding_divide_by_pot(x, exponent) -> np.ndarray:
    """gemmlowp RoundingDivideByPOT: x / 2^exponent rounded to nearest, ties away from zero (0 <= exponent <= 31)."""
    x, e = _i64(x), _i64(exponent)
    if np.any(e < 0) or np.any(e > 31):
        raise ValueError("rounding_divide_by_pot: exponent must be in [0, 31]")
    # gemmlowp's mask/remainder/threshold form equals floor((x + 2^(e-1) - [x < 0]) / 2^e) for e > 0.
    half = (np.int64(1) << e) >> 1
    nudge = half - ((x < 0) & (e > 0))
    return ((x + nudge) >> e).astype(np.int32)


def multiply_by_quantized_multiplier(x, multiplier, shift, rounding: str = DEFAULT_ROUNDING) -> np.ndarray:
    """TFLite MultiplyByQuantizedMultiplier: x * multiplier * 2^(shift-31) rounded as ``rounding`` declares.

    ``x`` is an int32 accumulator, ``multiplier`` an int32 M0 in [2^30, 2^31) (or 0), ``shift`` in [-31, 30].
    """
    x, m, s = _i64(x), _i64(multiplier), _i64(shift)
    if rounding == "double":
        # = rounding_divide_by_pot(saturating_rounding_doubling_high_mul(x << left, m), right), fused in place
        if np.any(s > 0):
            x = x * (np.int64(1) << np.maximum(s, 0))
            if np.any((x < INT32_MIN) | (x > INT32_MAX)):
                raise OverflowError("multiply_by_quantized_multiplier: x << left_shift overflows int32")
        if np.any(m == INT32_MIN):  # the one saturating case of SRDHM: use the reference composition
            return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(x, m), np.maximum(-s, 0))
        t = x * m
        t += 1 << 30
        t >>= 31
        right = np.maximum(-s, 0)
        if np.any(right > 0):
            neg = t < 0
            t += (np.int64(1) << right) >> 1
            t -= neg & (right > 0)
            t >>= right
        return t.astype(np.int32)
    if rounding == "single":
        total = 31 - s
        # x*m fits int64 for int32 operands; the half-up nudge is added before the arithmetic shift.
        r = (x * m + (np.int64(1) << (total - 1))) >> total
        return np.clip(r, INT32_MIN, INT32_MAX).astype(np.int32)
    raise ValueError(f"unknown rounding {rounding!r}; use one of {sorted(ROUNDINGS)}")


def multiply_by_quantized_multiplier_smaller_than_one(x, multiplier, shift,
                                                      rounding: str = DEFAULT_ROUNDING) -> np.ndarray:
    """TFLite MultiplyByQuantizedMultiplierSmallerThanOneExp (shift <= 0), used by the Add kernel."""
    x, m, s = _i64(x), _i64(multiplier), _i64(shift)
    if rounding == "double":
        return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(x, m), -s)
    return multiply_by_quantized_multiplier(x, m, s, rounding)


def quantize_multiplier(real: float) -> tuple[int, int]:
    """TFLite QuantizeMultiplier: real = M0 * 2^(shift-31) with M0 in [2^30, 2^31); (0, 0) for real == 0."""
    if real == 0.0:
        return 0, 0
    if real < 0 or not math.isfinite(real):
        raise ValueError(f"quantize_multiplier: multiplier {real!r} must be finite and >= 0")
    frac, shift = math.frexp(real)
    q = math.floor(frac * (1 << 31) + 0.5)  # std::round: ties away from zero (frac > 0)
    if q == (1 << 31):
        q //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    if shift > 30:
        raise ValueError(f"quantize_multiplier: multiplier {real!r} too large for int32 fixed point")
    return int(q), int(shift)


def quantize_multipliers(reals) -> tuple[np.ndarray, np.ndarray]:
    """Vector form of ``quantize_multiplier``: arrays of M0 (int32) and shift (int32)."""
    pairs = [quantize_multiplier(float(r)) for r in np.ravel(reals)]
    m0 = np.array([p[0] for p in pairs], dtype=np.int32)
    sh = np.array([p[1] for p in pairs], dtype=np.int32)
    return m0, sh


def rounding_divide(acc, count) -> np.ndarray:
    """Integer mean as TFLite's reference pooling: (acc ± count/2) / count, truncating toward zero (int64)."""
    acc, n = _i64(acc), _i64(count)
    half = n // 2
    num = np.where(acc > 0, acc + half, acc - half)
    q = np.abs(num) // n
    return np.where(num < 0, -q, q)


def saturate(x, lo: int, hi: int, dtype=np.int8) -> np.ndarray:
    """Clamp to [lo, hi] and cast (the activation clamp of every kernel's epilogue)."""
    return np.clip(_i64(x), lo, hi).astype(dtype)


def requantize(acc, multiplier, shift, zero_point: int, lo: int, hi: int,
               rounding: str = DEFAULT_ROUNDING) -> np.ndarray:
    """The common epilogue: scale an int32 accumulator, add the output zero point, clamp to int8."""
    scaled = multiply_by_quantized_multiplier(acc, multiplier, shift, rounding).astype(np.int64)
    scaled += zero_point
    np.clip(scaled, lo, hi, out=scaled)
    return scaled.astype(np.int8)


#: How float values are rounded to codes at the graph input: name -> description.
FLOAT_ROUNDINGS: dict[str, str] = {
    "half_even": "x/scale rounded half to even (ONNX QuantizeLinear)",
    "half_away": "x/scale rounded half away from zero (TFLite AffineQuantize, std::round)",
}


def quantize_float(x, scale: float, zero_point: int, lo: int = -128, hi: int = 127,
                   mode: str = "half_away") -> np.ndarray:
    """Float → int8 codes: round(x / scale) + zero_point, clamped; ``mode`` is one of FLOAT_ROUNDINGS."""
    v = np.asarray(x, dtype=np.float32) / np.float32(scale)
    if mode == "half_even":
        r = np.rint(v)
    elif mode == "half_away":
        a = np.abs(v)
        f = np.floor(a)
        r = np.sign(v) * (f + ((a - f) >= np.float32(0.5)))
    else:
        raise ValueError(f"unknown float rounding {mode!r}; use one of {sorted(FLOAT_ROUNDINGS)}")
    return np.clip(r.astype(np.int64) + zero_point, lo, hi).astype(np.int8)


def conv_multipliers(input_scale: float, weight_scales, output_scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Per-channel (M0, shift) for Conv/Gemm as TFLite computes them: double(s_in)*double(s_w)/double(s_out)."""
    reals = [float(np.float32(input_scale)) * float(np.float32(w)) / float(np.float32(output_scale))
             for w in np.ravel(weight_scales)]
    return quantize_multipliers(reals)


def mul_multiplier(input1_scale: float, input2_scale: float, output_scale: float) -> tuple[int, int]:
    """(M0, shift) of an int8 MUL as TFLite's mul.cc computes it: ``s1 * s2 / s_out`` evaluated in float32
    (all three are float fields), then widened to double for QuantizeMultiplier."""
    real = np.float32(np.float32(input1_scale) * np.float32(input2_scale)) / np.float32(output_scale)
    return quantize_multiplier(float(np.float32(real)))


def matmul_multiplier(lhs_scale: float, rhs_scale: float, output_scale: float) -> tuple[int, int]:
    """(M0, shift) of an int8 BATCH_MATMUL as TFLite computes it (GetQuantizedConvolutionMultipler without a
    bias): the scale product in float32, widened to double, divided by double(s_out)."""
    product = float(np.float32(np.float32(lhs_scale) * np.float32(rhs_scale)))
    return quantize_multiplier(product / float(np.float32(output_scale)))


def quantize_table(fn, in_scale: float, in_zp: int, out_scale: float, out_zp: int) -> np.ndarray:
    """A 256-entry int8 lookup table: out[q] = round(fn(dequant(q)) / out_scale) + out_zp (ties away), clamped.

    Index is ``q + 128``. The float function runs once per code at export time; execution is integer-only.
    A code where the function is infinite saturates (+inf → 127, -inf → -128); a code outside its domain
    (NaN, e.g. ``x^-½`` of a negative value) saturates to 127, as TFLite's int8 RSQRT returns its maximum
    for a non-positive input.
    """
    q = np.arange(-128, 128, dtype=np.int64)
    x = (q - in_zp).astype(np.float32) * np.float32(in_scale)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        y = np.asarray(fn(x), dtype=np.float32) / np.float32(out_scale)
    y = np.nan_to_num(y, nan=np.float32(1e9), posinf=np.float32(1e9), neginf=np.float32(-1e9))
    r = np.sign(y) * np.floor(np.abs(y) + np.float32(0.5))
    return np.clip(r.astype(np.int64) + out_zp, -128, 127).astype(np.int8)


def tflite_float_table(fn32, in_scale: float, in_zp: int, out_scale: float, out_zp: int) -> np.ndarray:
    """TFLite's PopulateLookupTable, all in float32: round(fn(s_in·(q - zp_in)) · (1/s_out)) + zp_out, ties away
    from zero (std::round), clamped. LiteRT 2.3's int8 LOGISTIC and TANH (BUILTIN_REF included) run this table
    (measured: the gemmlowp Q4.27 evaluation differs from LiteRT at near-ties, this table does not)."""
    q = np.arange(-128, 128, dtype=np.int64)
    x = np.float32(in_scale) * (q - in_zp).astype(np.float32)
    with np.errstate(over="ignore"):  # exp(-x) = inf for a wide input scale: 1 / (1 + inf) = 0, as std::exp gives
        y = (np.asarray(fn32(x), np.float32) * (np.float32(1.0) / np.float32(out_scale))).astype(np.float32)
    r = np.clip(round_to_int(y), -1 << 20, 1 << 20)
    return np.clip(r + out_zp, -128, 127).astype(np.int8)


def tflite_logistic_lut(in_scale: float, in_zp: int) -> np.ndarray:
    """LiteRT's int8 LOGISTIC table (output scale 1/256, zero point -128): 1 / (1 + exp(-x)) in float32."""
    one = np.float32(1.0)
    return tflite_float_table(lambda x: one / (one + np.exp(-x)), in_scale, in_zp, 1.0 / 256.0, -128)


def tflite_tanh_lut(in_scale: float, in_zp: int) -> np.ndarray:
    """LiteRT's int8 TANH table (output scale 1/128, zero point 0): tanh in float32."""
    return tflite_float_table(np.tanh, in_scale, in_zp, 1.0 / 128.0, 0)


def mean_multiplier(multiplier: int, shift: int, count: int) -> tuple[int, int]:
    """Fold 1/count into (M0, shift) as TFLite's integer QuantizedMeanOrSum does (truncating division).

    shift' = min(floor(log2 count), 32, 31 + shift); M0' = (M0 << shift') // count; result shift - shift'.
    """
    if count <= 0:
        raise ValueError("mean_multiplier: count must be positive")
    s = min(int(count).bit_length() - 1, 32, 31 + int(shift))
    return int((int(multiplier) << s) // int(count)), int(shift) - s


def isqrt(v) -> np.ndarray:
    """Exact floor(sqrt(v)) for int64 0 <= v < 2^62 (float estimate, then integer correction)."""
    v = _i64(v)
    if np.any(v < 0) or np.any(v >= (1 << 62)):
        raise ValueError("isqrt: argument must be in [0, 2^62)")
    r = np.floor(np.sqrt(v.astype(np.float64))).astype(np.int64)
    for _ in range(2):
        r = np.where(r * r > v, r - 1, r)
        r = np.where((r + 1) * (r + 1) <= v, r + 1, r)
    return r


def round_to_int(real, dtype=np.int64) -> np.ndarray:
    """Export-time float → integer constant, ties away from zero (std::round)."""
    a = np.asarray(real, np.float64)
    return (np.sign(a) * np.floor(np.abs(a) + 0.5)).astype(dtype)




# ----- gemmlowp fixed-point transcendental functions (TFLite's int8 SOFTMAX kernel) ---------------------------
# Values are int32 raw fixed-point numbers with a given count of integer bits (Q(ib).(31-ib)); products
# use saturating_rounding_doubling_high_mul, sums wrap like int32. Evaluated at export only (tables).

def _wrap32(v) -> np.ndarray:
    return ((_i64(v) + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def _mul(a, b) -> np.ndarray:
    return saturating_rounding_doubling_high_mul(a, b).astype(np.int64)


def _shl_sat(x, exponent: int) -> np.ndarray:
    """SaturatingRoundingMultiplyByPOT with a positive exponent: left shift, saturating at int32."""
    x = _i64(x)
    threshold = (1 << (31 - exponent)) - 1
    return np.where(x > threshold, INT32_MAX, np.where(x < -threshold, INT32_MIN, x << exponent))


def _exp_on_interval_between_negative_one_quarter_and_0_excl(a) -> np.ndarray:
    constant_term, one_third = 1895147668, 715827883
    x = _wrap32(_i64(a) + (1 << 28))
    x2 = _mul(x, x)
    x3 = _mul(x2, x)
    x4 = _mul(x2, x2)
    x4_over_4 = rounding_divide_by_pot(x4, 2).astype(np.int64)
    poly = rounding_divide_by_pot(_wrap32(_mul(_wrap32(x4_over_4 + x3), one_third) + x2), 1).astype(np.int64)
    return _wrap32(constant_term + _mul(constant_term, _wrap32(x + poly)))


def exp_on_negative_values(a, integer_bits: int) -> np.ndarray:
    """gemmlowp exp_on_negative_values: exp(a) for a <= 0 in Q(integer_bits), result in Q0."""
    frac = 31 - integer_bits
    a = _i64(a)
    one_quarter = 1 << (frac - 2)
    a_mod = _wrap32((a & (one_quarter - 1)) - one_quarter)
    result = _exp_on_interval_between_negative_one_quarter_and_0_excl(_shl_sat(a_mod, integer_bits))
    remainder = _wrap32(a_mod - a)
    for exponent, multiplier in ((-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308),
                                 (2, 39332535), (3, 720401), (4, 242)):
        if integer_bits > exponent:
            bit = (remainder & (1 << (frac + exponent))) != 0
            result = np.where(bit, _mul(result, multiplier), result)
    if integer_bits > 5:
        result = np.where(a < -(1 << (36 - integer_bits)), 0, result)
    return np.where(a == 0, INT32_MAX, result)


def _newton_reciprocal_q2(a) -> np.ndarray:
    """gemmlowp's Newton-Raphson estimate of 2 / (1 + a) for a in [0, 1) in Q0; result raw in Q2."""
    s = _i64(a) + INT32_MAX
    half_denominator = (s + np.where(s >= 0, 1, -1)) // 2  # RoundingHalfSum (operands are >= 0 here)
    x = _wrap32(1515870810 + _mul(half_denominator, -1010580540))
    for _ in range(3):
        one_minus = _wrap32((1 << 29) - _mul(half_denominator, x))
        x = _wrap32(x + _shl_sat(_mul(x, one_minus), 2))
    return x


def one_over_one_plus_x_for_x_in_0_1(a) -> np.ndarray:
    """gemmlowp: 1 / (1 + a) for a in [0, 1) in Q0 (ExactMulByPot<-1> then Rescale<0> of the Q2 estimate)."""
    return _shl_sat(_newton_reciprocal_q2(a), 1)


def _input_radius(integer_bits: int, left_shift: int) -> int:
    """TFLite CalculateInputRadius (total signed bits 31)."""
    return int(math.floor(((1 << integer_bits) - 1) * float(1 << (31 - integer_bits)) / math.ldexp(1.0, left_shift)))


def tflite_softmax_params(in_scale: float, beta: float = 1.0) -> tuple[np.ndarray, int]:
    """TFLite's int8 SOFTMAX preparation: (exp table over code distances d = max - x as raw Q0, or -1 where
    d is beyond diff_min and the output is the minimum; accumulation integer bits)."""
    diff_bits = 5
    real = min(beta * float(np.float32(in_scale)) * float(1 << (31 - diff_bits)), float((1 << 31) - 1))
    m, left_shift = quantize_multiplier(real)
    diff_min = -_input_radius(diff_bits, left_shift)
    d = -np.arange(256, dtype=np.int64)
    scaled = multiply_by_quantized_multiplier(np.maximum(d, diff_min), m, left_shift, "double").astype(np.int64)
    table = exp_on_negative_values(scaled, diff_bits)
    return np.where(d >= diff_min, table, -1).astype(np.int64), 12


def count_leading_zeros32(x) -> np.ndarray:
    x = _i64(x) & 0xFFFFFFFF
    n = np.zeros(x.shape, np.int64)
    for bits in (16, 8, 4, 2, 1):
        small = x < (1 << (32 - bits))
        n = np.where(small, n + bits, n)
        x = np.where(small, x << bits, x)
    return np.where(_i64(x) == 0, 32, n)


def tflite_softmax(codes: np.ndarray, table: np.ndarray, acc_bits: int = 12) -> np.ndarray:
    """TFLite's reference int8 SOFTMAX over the last axis (gemmlowp fixed point; output 1/256, -128)."""
    x = _i64(codes)
    e = table[x.max(axis=-1, keepdims=True) - x]
    valid = e >= 0
    total = _wrap32(np.where(valid, rounding_divide_by_pot(np.maximum(e, 0), acc_bits), 0).sum(axis=-1, keepdims=True))
    headroom = count_leading_zeros32(total)
    bits_over_unit = acc_bits - headroom
    shifted_minus_one = _wrap32(((total << headroom) & 0xFFFFFFFF) - (1 << 31))
    scale = one_over_one_plus_x_for_x_in_0_1(shifted_minus_one)
    out = rounding_divide_by_pot(_mul(scale, np.maximum(e, 0)), bits_over_unit + 31 - 8).astype(np.int64) - 128
    return np.clip(np.where(valid, out, -128), -128, 127).astype(np.int8)


def _srdhm16(a, b) -> np.ndarray:
    a, b = _i64(a), _i64(b)
    ab = a * b
    q = (ab + (1 << 14)) >> 15  # = gemmlowp's nudge-and-truncate, as for 32 bits
    return np.where((a == -32768) & (b == -32768), 32767, q)


def _sdhm16(a, b) -> np.ndarray:
    """SaturatingDoublingHighMul (int16, truncating toward zero, no rounding)."""
    a, b = _i64(a), _i64(b)
    ab = a * b
    q = np.where(ab >= 0, ab >> 15, -((-ab) >> 15))
    return np.where((a == -32768) & (b == -32768), 32767, q)


def _shl_sat16(x, amount: int) -> np.ndarray:
    return np.clip(_i64(x) << amount, -32768, 32767)


def _int16_multiplier(m: int) -> int:
    """TFLite DownScaleInt32ToInt16Multiplier."""
    return 32767 if m >= INT32_MAX - (1 << 15) else (m + (1 << 15)) >> 16


def tflite_hardswish_table(in_scale: float, in_zp: int, out_scale: float, out_zp: int) -> np.ndarray:
    """TFLite's reference int8 HARD_SWISH for every input code (int16 fixed point, 'reluish' multiplier)."""
    hires = np.float32(1.0 / 128.0) * np.float32(in_scale)
    m_out, e_out = quantize_multiplier(float(hires / np.float32(out_scale)))
    m_rel, e_rel = quantize_multiplier(float(hires / np.float32(3.0 / 32768.0)))
    m_out16, m_rel16 = _int16_multiplier(m_out), _int16_multiplier(m_rel)
    if e_out > 0:
        raise ValueError("tflite_hardswish_table: output multiplier exponent must be <= 0")
    v = np.arange(-128, 128, dtype=np.int64) - in_zp
    hi = v * 128
    pre = _srdhm16(hi, m_out16)
    rel = hi
    if e_rel > 0:
        rel = _shl_sat16(rel, e_rel - 1)
    rel = _srdhm16(rel, m_rel16)
    if e_rel > 0:
        rel = _shl_sat16(rel, 1)
    if e_rel < 0:
        rel = rounding_divide_by_pot(rel, -e_rel).astype(np.int64)
    rel = (rel + (1 << 15)) >> 1
    out = rounding_divide_by_pot(_sdhm16(rel, pre), -e_out).astype(np.int64) + out_zp
    return np.clip(out, -128, 127).astype(np.int8)
