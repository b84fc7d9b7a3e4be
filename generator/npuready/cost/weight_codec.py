"""Encoded size of an Ethos-U weight stream: the bytes Vela streams for a layer's weights.

Vela does not move one byte per int8 weight: its weight codec (regor in the ethos-u-vela 5.2.0 sdist,
``dependencies/mlw_codec/source/mlw_encode.cpp`` and ``ml_ethosu_encode.cpp``, called by
``EthosU55WeightEncoder::EncodeWeights`` through ``architecture/mlw_encode.cpp`` ``mle_encode_proxy``)
packs them, and the performance model charges the encoded size (``EthosU55Performance::ElementTransferToBytes``:
``encodedWeightSize``). This module re-implements the codec's decisions and counts the bits it writes, without
writing them:

- the stream is cut into sections of 128 Ki values (``mle_encode_proxy`` chunk size; each section is encoded
  with ``MLW_ENCODE_NEW_PALETTE``: frequencies reset, a fresh palette);
- per section ``update_palette``/``create_palette``: zero-run (alternating) mode when runs of two or more
  zeros hold at least half of the zeros and zero is more than 5 x as common as any other value; a palette of
  the up to 32 most frequent values (sign-magnitude ``(|v| << 1) | sign``) when it covers at least half of the
  values; ``direct_offset``, ``palbits``; values map to palette indices (``create_inverse_palette``);
- ``search_grc_params``: the greedy forward search over the 13 weight / 4 zero-run Golomb-Rice settings with
  a 40-bit cost to switch, which cuts the section into slices (at most 2^15 - 1 values each);
- ``encode_slice_header`` / ``encode_slice``: a 23-bit header (+ 13 bits and the palette when new), weight
  chunks of 12 unary symbols (``WUNARY0``, 12 bits each), the second unary bits, the remainders, and zero-run
  chunks of 12 (or 8) unary symbols;
- ``ml_encode_eos``: a 3-bit end-of-stream marker, byte alignment, padding to 16 bytes.

The search is sequential; it is evaluated here a window of values at a time with NumPy and stepped one value
at a time only where the search changes its setting, which gives the same slices as the loop. Tested equal, bit
for bit in size, to a direct transcription of the loop and to Vela's own sizes (``tests/cost``).
"""
from __future__ import annotations

import numpy as np

SECTION = 128 * 1024  # mle_encode_proxy(source, 128 * 1024, ...)
MAX_SLICE = (1 << 15) - 1  # ETHOSU_SLICELEN_BITS = 15
SWITCH_BITS = 40  # search_grc_params cmd_cost
HEADER_BITS = 3 + 15 + 3 + 1 + 1  # ZDIV, SLICELEN, WDIV, WTRUNC, NEWPAL
PALETTE_HEADER_BITS = 5 + 5 + 3  # DIROFS, PALSIZE, PALBITS
EOS_BITS = 3
PAD_BYTES = 16  # align(128 bits)
W_GRC = (0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x20)  # (trunc << 4) | div
Z_GRC = (0x00, 0x01, 0x02, 0x03)
UNCOMPRESSED = 12  # index of 0x20 in W_GRC


def stream_bytes(values: np.ndarray) -> int:
    """Encoded bytes of one weight stream (int values in -256..255, in the order the hardware reads them)."""
    values = np.asarray(values, dtype=np.int64).ravel()
    bits = sum(section_bits(values[s:s + SECTION]) for s in range(0, len(values), SECTION))
    nbytes = -(-(bits + EOS_BITS) // 8)
    return -(-nbytes // PAD_BYTES) * PAD_BYTES


class _Palette:
    """``palette_t`` after ``update_palette`` + ``create_palette`` on one section."""

    def __init__(self, section: np.ndarray):
        freq = np.bincount(section + 256, minlength=512)
        zeros = int(freq[256])
        isolated = _isolated_zeros(section)
        others = freq.copy()
        others[256] = 0
        self.zero_runs = (zeros - isolated) >= zeros // 2 and zeros > 5 * int(others.max())
        counts = freq.copy()
        if self.zero_runs:
            counts[256] = 0
        values = np.arange(-256, 256)
        palval = (np.abs(values) << 1) | (values < 0)
        by_palval = np.zeros(512, dtype=np.int64)
        by_palval[palval[1:]] = counts[1:]  # value -256 is never present
        total = int(by_palval.sum())
        used = np.nonzero(by_palval)[0]
        max_val = int(used.max()) if used.size else 0
        self.only_zeros = total == 0
        direct = 0
        if total:
            head = np.nonzero(by_palval[:31])[0]
            direct = int(head[0]) if head.size else 31
        # sort by (count, palval) descending, as the 64-bit keys (count << 16 | palval) sort
        order = np.lexsort((-np.arange(512), -by_palval))
        sorted_counts = by_palval[order]
        self.only_palette = sorted_counts[0] > 0 and sorted_counts[32] == 0
        max_size = 32 if self.only_palette else min(32, 511 - max_val)
        if max_size == 1:
            max_size = 0
        n = int(np.count_nonzero(sorted_counts[:max_size]))
        lut = [int(v) for v in order[:n]]
        lut_count = int(sorted_counts[:n].sum())
        max_lut = max(lut, default=0)
        if n == 1:
            lut.append(0)
        if lut_count >= total // 2:
            self.size, widest = len(lut), max_lut
        else:
            self.size, widest, lut = 0, max_val, []
        self.lut = lut
        self.bits = max(2, int(widest).bit_length())
        inverse = np.empty(512, dtype=np.int64)  # create_inverse_palette
        k = np.arange(256)
        inverse[256 + k] = self.size - direct + 2 * k
        inverse[256 - k] = self.size - direct + 2 * k + 1  # k = 0 overwrites 256 + 0, as the loop does
        inverse[0] = 0
        for i, v in enumerate(lut[:self.size]):
            inverse[256 + (-(v >> 1) if v & 1 else v >> 1)] = i
        self.inverse = inverse
        if self.only_palette:
            self.uncompressed_bits = max(0, (self.size - 1).bit_length()) if self.size > 1 else 0
        elif self.size == 0:
            self.uncompressed_bits = self.bits
        else:
            self.uncompressed_bits = 0


def _isolated_zeros(section: np.ndarray) -> int:
    """Zeros not in a run of at least MIN_ZERO_RUN_LENGTH = 2."""
    z = section == 0
    if not z.any():
        return 0
    left = np.concatenate(([False], z[:-1]))
    right = np.concatenate((z[1:], [False]))
    return int(np.count_nonzero(z & ~left & ~right))


def section_bits(section: np.ndarray) -> int:
    """Bits ``ml_encode_section`` writes for one section with a new palette."""
    if section.size == 0:
        return 0
    pal = _Palette(section)
    if pal.zero_runs:
        nonzero = np.nonzero(section)[0]
        if pal.only_zeros:  # the first zero is coded as a weight so the slice is not empty
            nonzero = np.array([0])
        weights = pal.inverse[section[nonzero] + 256]
        edges = np.concatenate(([-1], nonzero, [section.size]))
        runs = np.diff(edges) - 1
        if pal.only_zeros:
            runs[0] = 0
    else:
        weights, runs = pal.inverse[section + 256], None
    n = weights.size
    w_slices = grc_slices(weights, False, pal.uncompressed_bits)
    z_slices = grc_slices(runs, True, 0) if runs is not None else []
    bits, pos, iw, iz, new_palette = 0, 0, 0, 0, True
    first_pass = runs is not None
    while pos < n or new_palette or first_pass:
        w_len = min(w_slices[iw][1] - pos, MAX_SLICE) if iw < len(w_slices) else 0
        z_len = min(z_slices[iz][1] - pos, MAX_SLICE) if iz < len(z_slices) else 0
        w_cfg = w_slices[iw][0] if w_len else 0
        bits += HEADER_BITS + (PALETTE_HEADER_BITS + pal.size * pal.bits if new_palette else 0)
        bits += _weight_bits(weights[pos:pos + w_len], w_cfg, pal.uncompressed_bits)
        if runs is not None and z_len:
            start = pos + (0 if new_palette else 1)
            bits += _zero_run_bits(runs[start:start + w_len + (1 if new_palette else 0)], z_slices[iz][0])
        new_palette = first_pass = False
        pos += w_len if z_len <= 0 < w_len else z_len if w_len <= 0 < z_len else min(z_len, w_len)
        if iw < len(w_slices) and w_slices[iw][1] <= pos:
            iw += 1
        if iz < len(z_slices) and z_slices[iz][1] <= pos:
            iz += 1
    return bits


def _weight_bits(values: np.ndarray, cfg: int, uncompressed_bits: int) -> int:
    """``encode_slice`` bits of a slice's weights: 12-bit WUNARY0 chunks, WUNARY1 bits, remainders."""
    if not values.size:
        return 0
    trunc, div = W_GRC[cfg] >> 4, W_GRC[cfg] & 15
    if trunc == 2:
        return values.size * uncompressed_bits
    q = values >> div
    if trunc:
        symbols, second = values.size, int(np.count_nonzero(q))
    else:
        symbols, second = int((q // 2 + 1).sum()), int(((q + 1) // 2).sum())
    return 12 * -(-symbols // 12) + second + values.size * div


def _zero_run_bits(runs: np.ndarray, cfg: int) -> int:
    """``encode_slice`` bits of a slice's zero runs: ZUNARY chunks (12 bits, 8 for ZDIV 3) and remainders."""
    div = Z_GRC[cfg] & 15
    chunk = 12 if div < 3 else 8
    symbols = int(((runs >> div) + 1).sum())
    return chunk * -(-symbols // chunk) + runs.size * div


def _costs(values: np.ndarray, zero_runs: bool, uncompressed_bits: int) -> tuple[np.ndarray, np.ndarray]:
    """Per setting (rows) and value (columns): bits to code it, and whether the setting can code it."""
    params = np.array(Z_GRC if zero_runs else W_GRC, dtype=np.int32)
    div, trunc = (params & 15)[:, None], (params >> 4)[:, None]
    q = values.astype(np.int32)[None, :] >> div
    bits = np.where(trunc == 1, np.minimum(q + 1, 2), q + 1) + div
    if zero_runs:
        return bits, np.ones(bits.shape, dtype=bool)
    ok = q <= np.where(trunc == 1, 2, 31)
    bits[UNCOMPRESSED] = uncompressed_bits if uncompressed_bits > 0 else 100
    ok[UNCOMPRESSED] = True
    return bits, ok


class _Search:
    """What ``search_grc_params`` needs at every value that does not depend on which setting is active:
    running bit sums (a setting that cannot code a value pays the switch cost instead), the last value at which
    each setting restarted (coded a value after one it could not: its count then restarts from the active
    one's), and the values each setting cannot code (``reset_pos`` is the position after the last of them)."""

    def __init__(self, values: np.ndarray, zero_runs: bool, uncompressed_bits: int):
        bits, ok = _costs(values, zero_runs, uncompressed_bits)
        self.ok = ok
        self.bits0 = bits[:, 0].astype(np.int64)
        inc = np.where(ok, bits, np.int32(SWITCH_BITS))
        inc[:, 0] = 0
        self.cs = np.cumsum(inc, axis=1, dtype=np.int32)  # from value 1 on (value 0 is the first step)
        self.uncodable = [np.flatnonzero(~row) for row in ok]
        if all(u.size == 0 for u in self.uncodable):
            self.last_restart = None
            return
        cols = np.arange(values.size, dtype=np.int32)
        restart = np.zeros_like(ok)
        restart[:, 1:] = ok[:, 1:] & ~ok[:, :-1]
        self.last_restart = np.maximum.accumulate(np.where(restart, cols, 0), axis=1)
        self.cs_before_restart = np.take_along_axis(self.cs, np.maximum(self.last_restart - 1, 0), axis=1)

    def reset_pos(self, setting: int, at: int) -> int:
        """``reset_pos`` of ``setting`` after value ``at``: one past the last value up to ``at`` it cannot code."""
        bad = self.uncodable[setting]
        k = int(np.searchsorted(bad, at, side="right"))
        return int(bad[k - 1]) + 1 if k else 0

    def offsets(self, active: int, offset: np.ndarray, start: int, lo: int, hi: int) -> np.ndarray:
        """Every setting's offset (count minus running sum) at each value of [lo, hi) when ``active`` has been
        active since ``start`` (<= lo): a setting that restarted since then took the active count before its
        restart."""
        if self.last_restart is None:
            return offset[:, None]
        last = self.last_restart[:, lo:hi]
        restarted = last >= start
        if not restarted.any():
            return offset[:, None]
        act = offset[active] + self.cs[active][np.maximum(last - 1, 0)]
        return np.where(restarted, act - self.cs_before_restart[:, lo:hi], offset[:, None])


def grc_slices(values: np.ndarray, zero_runs: bool, uncompressed_bits: int) -> list[list[int]]:
    """``search_grc_params`` (not single-slice): [[setting, end position], ...] for the stream ``values``."""
    n = values.size
    if n == 0:
        return []
    s = _Search(values, zero_runs, uncompressed_bits)
    ok0 = s.ok[:, 0]
    # step 0: nothing is active yet; every setting that can code the value starts from 0
    offset = np.where(ok0, s.bits0, SWITCH_BITS)  # a setting's count = offset + running sum, until it restarts
    active = _best(offset, ok0)
    result: list[list[int]] = []
    i, window = 1, 256
    while i < n:
        end = min(n, i + window)
        event = _first_switch(s, active, offset, i, end)
        if event is None:
            offset = s.offsets(active, offset, i, end - 1, end)[:, 0]
            i, window = end, min(window * 2, 1 << 14)
            continue
        offset = s.offsets(active, offset, i, event, event + 1)[:, 0]
        count = offset + s.cs[:, event]
        best = _best(count, s.ok[:, event])
        if count[best] < count[active] and s.reset_pos(best, event) <= s.reset_pos(active, event):
            active = best
        else:
            result.append([active, event])
            active = best
        i, window = event + 1, 256
    if not result or result[-1][0] != active:
        result.append([active, n])
    result[-1][1] = n
    return result


def _best(count: np.ndarray, coded: np.ndarray) -> int:
    """The first codable setting with the fewest bits so far."""
    return int(np.argmin(np.where(coded, count, np.iinfo(np.int64).max)))


def _first_switch(s: _Search, active: int, offset: np.ndarray, start: int, end: int) -> int | None:
    """The first value in [start, end) at which the search leaves ``active``: the active setting cannot code
    it, or a codable one has a count more than the switch cost below the active count before this value."""
    stuck = np.flatnonzero(~s.ok[active, start:end])
    if stuck.size:
        end = start + int(stuck[0]) + 1
    count = s.offsets(active, offset, start, start, end) + s.cs[:, start:end]
    act_before = offset[active] + s.cs[active, start - 1:end - 1]
    cheaper = (s.ok[:, start:end] & (count + SWITCH_BITS < act_before)).any(axis=0)
    hits = np.flatnonzero(cheaper)
    if hits.size:
        return start + int(hits[0])
    return end - 1 if stuck.size else None
