"""Vela's weight codec, sizes only (npuready.cost.weight_codec, after regor's mlw_codec in ethos-u-vela 5.2.0):
the windowed NumPy search gives the slices of a direct transcription of ``search_grc_params``' loop, and a
section's bit count follows the bitstream syntax worked out by hand."""
import numpy as np
import pytest

from npuready.cost.weight_codec import SECTION, W_GRC, Z_GRC, grc_slices, section_bits, stream_bytes


def loop_search(values, zero_runs, uncompressed_bits):
    """``search_grc_params`` (mlw_encode.cpp, not single-slice) as its C loop reads, one value at a time."""
    params = Z_GRC if zero_runs else W_GRC
    count, reset, coded = [0] * len(params), [0] * len(params), [False] * len(params)
    active, active_count, result = -1, 0, []
    for i, value in enumerate(int(v) for v in values):
        best, best_count = 0, 0x7FFFFFFF
        for j, p in enumerate(params):
            div, trunc = p & 15, p >> 4
            q = value >> div
            bits = (min(q + 1, 2) + div) if trunc else q + 1 + div
            ok = zero_runs or not ((trunc and q > 2) or q > 31)
            if trunc == 2:
                bits, ok = (uncompressed_bits if uncompressed_bits > 0 else 100), True
            if ok:
                count[j] = (count[j] if coded[j] else active_count) + bits
                if count[j] < best_count:
                    best, best_count = j, count[j]
            else:
                reset[j], count[j] = i + 1, count[j] + 40
            coded[j] = ok
        if active == -1 or not coded[active] or (best != active and best_count + 40 < active_count):
            if active != -1:
                if not (count[best] < count[active] and reset[best] <= reset[active]):
                    result.append([active, i])
            active = best
        active_count = count[active]
    if not result or result[-1][0] != active:
        result.append([active, 0])
    result[-1][1] = len(values)
    return result


def _streams():
    rng = np.random.default_rng(0)
    for n in (1, 2, 7, 300, 5000, 40000):
        yield rng.integers(0, 64, n)  # palette indices, mostly codable by every setting
        # long tails: settings drop out
        yield np.minimum(np.abs(rng.laplace(0, rng.uniform(0.5, 60), n)).astype(int), 511)
        yield np.where(rng.random(n) < 0.9, 0, rng.integers(1, 2000, n))  # zero-run lengths


@pytest.mark.parametrize("zero_runs", [False, True])
@pytest.mark.parametrize("uncompressed_bits", [0, 8])
def test_windowed_search_gives_the_slices_of_the_loop(zero_runs, uncompressed_bits):
    for values in _streams():
        if not zero_runs and values.max() > 511:
            continue
        assert grc_slices(values, zero_runs, uncompressed_bits) == loop_search(values, zero_runs, uncompressed_bits)


def test_an_all_zero_section_codes_one_weight_and_two_zero_runs():
    # palette: zero-run mode (zeros > 5 x any other value), no palette (palsize 0), direct offset 0; the first
    # zero is coded as weight index 1 so the slice is not empty, runs [0, 236] follow it.
    # header 23 + new-palette fields 13; weight: GRC div 0, one 12-bit WUNARY0 chunk + 1 WUNARY1 bit;
    # runs: the greedy search keeps ZDIV 0 (at the 236 its best, ZDIV 3, is compared with the active count
    # BEFORE that value, 1 bit), so 1 + 237 unary symbols -> 20 chunks of 12 bits, no remainders
    assert section_bits(np.zeros(237, dtype=np.int64)) == 36 + 13 + 240
    assert stream_bytes(np.zeros(237)) == 48  # (289 + 3-bit end marker) -> 37 bytes -> padded to 48


def test_uniform_int8_values_stay_near_one_byte_each():
    values = np.random.default_rng(1).integers(-127, 128, 50000)
    assert 50000 <= stream_bytes(values) <= 50000 * 1.02


def test_a_stream_longer_than_a_section_gets_a_fresh_palette_per_section():
    rng = np.random.default_rng(2)
    first = np.round(rng.laplace(0, 2, SECTION)).astype(int)
    second = np.round(rng.laplace(0, 30, 1000)).clip(-127, 127).astype(int)
    both = np.concatenate([first, second])
    bits = section_bits(first) + section_bits(second)
    assert stream_bytes(both) == -(-(-(-(bits + 3) // 8)) // 16) * 16
