// The Ethos-U weight codec's encoded size, natively: the C++ twin of npuready/cost/weight_codec.py (the
// reference; its docstring cites the Vela 5.2.0 sources each step follows) and of weight_stream.weight_order.
// Sizes only: every decision the encoder makes (sections, palette, Golomb-Rice slices) is taken, and the bits it
// would write are counted. The tests assert equal sizes to the NumPy reference and to Vela's own encoder.
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace {

constexpr int SECTION = 128 * 1024;
constexpr int64_t MAX_SLICE = (1 << 15) - 1;
constexpr int64_t SWITCH_BITS = 40;
constexpr int64_t HEADER_BITS = 3 + 15 + 3 + 1 + 1;
constexpr int64_t PALETTE_HEADER_BITS = 5 + 5 + 3;
constexpr int64_t EOS_BITS = 3;
constexpr int64_t PAD_BYTES = 16;
constexpr int W_COUNT = 13, Z_COUNT = 4;
constexpr int W_GRC[W_COUNT] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x20};
constexpr int Z_GRC[Z_COUNT] = {0x00, 0x01, 0x02, 0x03};

int bit_length(int64_t v) {
    int n = 0;
    while (v > 0) { ++n; v >>= 1; }
    return n;
}

struct Palette {  // weight_codec._Palette
    bool zero_runs = false, only_zeros = false, only_palette = false;
    int size = 0, bits = 0, uncompressed_bits = 0;
    int32_t inverse[512];
};

void make_palette(const int16_t* s, int n, Palette& p) {
    int64_t freq[512] = {0};
    for (int i = 0; i < n; ++i) freq[s[i] + 256]++;
    int64_t zeros = freq[256], isolated = 0, max_other = 0;
    for (int i = 0; i < n; ++i)
        if (s[i] == 0 && (i == 0 || s[i - 1] != 0) && (i == n - 1 || s[i + 1] != 0)) ++isolated;
    for (int v = 0; v < 512; ++v)
        if (v != 256) max_other = std::max(max_other, freq[v]);
    p.zero_runs = (zeros - isolated) >= zeros / 2 && zeros > 5 * max_other;
    int64_t by_palval[512] = {0};
    for (int v = -255; v <= 255; ++v) {
        int64_t c = (v == 0 && p.zero_runs) ? 0 : freq[v + 256];
        by_palval[(std::abs(v) << 1) | (v < 0 ? 1 : 0)] = c;
    }
    int64_t total = 0;
    int max_val = 0;
    for (int k = 0; k < 512; ++k) {
        total += by_palval[k];
        if (by_palval[k]) max_val = k;
    }
    p.only_zeros = total == 0;
    int direct = 0;
    if (total) {
        direct = 31;
        for (int k = 0; k < 31; ++k)
            if (by_palval[k]) { direct = k; break; }
    }
    // (count, palval) descending, as the 64-bit keys (count << 16 | palval) sort
    uint64_t key[512];
    for (int k = 0; k < 512; ++k) key[k] = (static_cast<uint64_t>(by_palval[k]) << 16) | static_cast<uint64_t>(k);
    std::sort(key, key + 512, [](uint64_t a, uint64_t b) { return a > b; });
    auto count_at = [&](int i) { return static_cast<int64_t>(key[i] >> 16); };
    auto palval_at = [&](int i) { return static_cast<int>(key[i] & 0xFFFF); };
    p.only_palette = count_at(0) > 0 && count_at(32) == 0;
    int max_size = p.only_palette ? 32 : std::min(32, 511 - max_val);
    if (max_size == 1) max_size = 0;
    int nlut = 0;
    int64_t lut_count = 0;
    for (int i = 0; i < max_size; ++i)
        if (count_at(i)) ++nlut;
    std::vector<int> lut;
    int max_lut = 0;
    for (int i = 0; i < nlut; ++i) {
        lut.push_back(palval_at(i));
        lut_count += count_at(i);
        max_lut = std::max(max_lut, palval_at(i));
    }
    if (nlut == 1) lut.push_back(0);
    int widest;
    if (lut_count >= total / 2) {
        p.size = static_cast<int>(lut.size());
        widest = max_lut;
    } else {
        p.size = 0;
        widest = max_val;
        lut.clear();
    }
    p.bits = std::max(2, bit_length(widest));
    for (int k = 0; k < 256; ++k) p.inverse[256 + k] = p.size - direct + 2 * k;
    for (int k = 0; k < 256; ++k) p.inverse[256 - k] = p.size - direct + 2 * k + 1;  // k = 0 overwrites
    p.inverse[0] = 0;
    for (int i = 0; i < p.size; ++i) {
        int v = lut[i];
        p.inverse[256 + ((v & 1) ? -(v >> 1) : (v >> 1))] = i;
    }
    if (p.only_palette)
        p.uncompressed_bits = p.size > 1 ? bit_length(p.size - 1) : 0;
    else
        p.uncompressed_bits = p.size == 0 ? p.bits : 0;
}

struct Slice {
    int setting;
    int64_t end;
};

// search_grc_params (not single-slice): the greedy forward search, one value at a time. Two kernels give the
// same slices: the loop as the C source reads (scalar), and the 16 settings as lanes of two AVX2 registers.
std::vector<Slice> grc_slices_scalar(const std::vector<int32_t>& values, bool zero_runs, int uncompressed_bits) {
    std::vector<Slice> result;
    const int64_t n = static_cast<int64_t>(values.size());
    if (n == 0) return result;
    const int m = zero_runs ? Z_COUNT : W_COUNT;
    int div[W_COUNT], trunc[W_COUNT];
    for (int j = 0; j < m; ++j) {
        const int p = zero_runs ? Z_GRC[j] : W_GRC[j];
        div[j] = p & 15;
        trunc[j] = p >> 4;
    }
    const int64_t plain = uncompressed_bits > 0 ? uncompressed_bits : 100;
    int64_t count[W_COUNT] = {0}, reset[W_COUNT] = {0};
    bool coded[W_COUNT] = {false};
    int active = -1;
    int64_t active_count = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int32_t value = values[i];
        int best = 0;
        int64_t best_count = 0x7FFFFFFF;
        for (int j = 0; j < m; ++j) {
            int64_t bits;
            bool ok;
            if (trunc[j] == 2) {
                bits = plain;
                ok = true;
            } else {
                const int64_t q = value >> div[j];
                bits = (trunc[j] ? std::min<int64_t>(q + 1, 2) : q + 1) + div[j];
                ok = zero_runs || q <= (trunc[j] ? 2 : 31);
            }
            if (ok) {
                count[j] = (coded[j] ? count[j] : active_count) + bits;
                if (count[j] < best_count) { best = j; best_count = count[j]; }
            } else {
                reset[j] = i + 1;
                count[j] += SWITCH_BITS;
            }
            coded[j] = ok;
        }
        if (active == -1 || !coded[active] || (best != active && best_count + SWITCH_BITS < active_count)) {
            if (active != -1 && !(count[best] < count[active] && reset[best] <= reset[active]))
                result.push_back({active, i});
            active = best;
        }
        active_count = count[active];
    }
    if (result.empty() || result.back().setting != active) result.push_back({active, 0});
    result.back().end = n;
    return result;
}

// The AVX2 kernel. Lanes 0..12 (or 0..3) are the settings, the rest never code a value. At the start of a value
// the active setting coded the previous one and its count is active_count, so while it codes the value its new
// count is active_count + its bits, and the search leaves it only when it cannot code the value or the cheapest
// count is more than the switch cost below active_count: only the minimum is needed per value, the lanes are
// read back only when the search switches.
__attribute__((target("avx2")))
std::vector<Slice> grc_slices_avx2(const std::vector<int32_t>& values, bool zero_runs, int uncompressed_bits) {
    std::vector<Slice> result;
    const int64_t n = static_cast<int64_t>(values.size());
    if (n == 0) return result;
    const int m = zero_runs ? Z_COUNT : W_COUNT;
    const int32_t plain = uncompressed_bits > 0 ? uncompressed_bits : 100;
    alignas(32) int32_t div[16], cap[16], lim1[16], always[16], is_plain[16];
    for (int j = 0; j < 16; ++j) {
        const int p = j < m ? (zero_runs ? Z_GRC[j] : W_GRC[j]) : 0;
        const int trunc = p >> 4;
        div[j] = p & 15;
        cap[j] = trunc == 1 ? 2 : 0x3FFFFFFF;
        lim1[j] = j >= m ? 0 : trunc == 1 ? 3 : 32;  // codes q < lim1 (q >= 0)
        always[j] = (j < m && (zero_runs || trunc == 2)) ? -1 : 0;
        is_plain[j] = (j < m && trunc == 2) ? -1 : 0;
    }
    const __m256i div0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(div));
    const __m256i div1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(div + 8));
    const __m256i cap0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(cap));
    const __m256i cap1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(cap + 8));
    const __m256i lim0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(lim1));
    const __m256i limh = _mm256_load_si256(reinterpret_cast<const __m256i*>(lim1 + 8));
    const __m256i alw0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(always));
    const __m256i alw1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(always + 8));
    const __m256i pl0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(is_plain));
    const __m256i pl1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(is_plain + 8));
    const __m256i plainv = _mm256_set1_epi32(plain), one = _mm256_set1_epi32(1);
    const __m256i sw = _mm256_set1_epi32(static_cast<int32_t>(SWITCH_BITS)), big = _mm256_set1_epi32(0x7FFFFFFF);
    __m256i cnt0 = _mm256_setzero_si256(), cnt1 = cnt0, rst0 = cnt0, rst1 = cnt0, cod0 = cnt0, cod1 = cnt0;
    alignas(32) int32_t lanes[16];
    int active = -1;
    int32_t active_count = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int32_t value = values[i];
        const __m256i v = _mm256_set1_epi32(value), ac = _mm256_set1_epi32(active_count);
        const __m256i next = _mm256_set1_epi32(static_cast<int32_t>(i + 1));
        const __m256i q0 = _mm256_srav_epi32(v, div0), q1 = _mm256_srav_epi32(v, div1);
        const __m256i u0 = _mm256_add_epi32(_mm256_min_epi32(_mm256_add_epi32(q0, one), cap0), div0);
        const __m256i u1 = _mm256_add_epi32(_mm256_min_epi32(_mm256_add_epi32(q1, one), cap1), div1);
        const __m256i b0 = _mm256_blendv_epi8(u0, plainv, pl0), b1 = _mm256_blendv_epi8(u1, plainv, pl1);
        const __m256i ok0 = _mm256_or_si256(alw0, _mm256_cmpgt_epi32(lim0, q0));
        const __m256i ok1 = _mm256_or_si256(alw1, _mm256_cmpgt_epi32(limh, q1));
        const __m256i base0 = _mm256_blendv_epi8(ac, cnt0, cod0), base1 = _mm256_blendv_epi8(ac, cnt1, cod1);
        cnt0 = _mm256_blendv_epi8(_mm256_add_epi32(cnt0, sw), _mm256_add_epi32(base0, b0), ok0);
        cnt1 = _mm256_blendv_epi8(_mm256_add_epi32(cnt1, sw), _mm256_add_epi32(base1, b1), ok1);
        rst0 = _mm256_blendv_epi8(next, rst0, ok0);
        rst1 = _mm256_blendv_epi8(next, rst1, ok1);
        cod0 = ok0;
        cod1 = ok1;
        __m256i mn = _mm256_min_epi32(_mm256_blendv_epi8(big, cnt0, ok0), _mm256_blendv_epi8(big, cnt1, ok1));
        mn = _mm256_min_epi32(mn, _mm256_permute2x128_si256(mn, mn, 1));
        mn = _mm256_min_epi32(mn, _mm256_shuffle_epi32(mn, 0x4E));
        mn = _mm256_min_epi32(mn, _mm256_shuffle_epi32(mn, 0xB1));
        const int32_t best_count = _mm256_cvtsi256_si32(mn);
        bool active_ok = false;
        int32_t active_bits = 0;
        if (active >= 0) {
            const int p = zero_runs ? Z_GRC[active] : W_GRC[active];
            const int trunc = p >> 4, d = p & 15;
            if (trunc == 2) {
                active_ok = true;
                active_bits = plain;
            } else {
                const int32_t q = value >> d;
                active_ok = zero_runs || q <= (trunc ? 2 : 31);
                active_bits = (trunc ? std::min(q + 1, 2) : q + 1) + d;
            }
        }
        if (active == -1 || !active_ok || static_cast<int64_t>(best_count) + SWITCH_BITS < active_count) {
            const unsigned okm = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ok0))) |
                                 (static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ok1))) << 8);
            _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), cnt0);
            _mm256_store_si256(reinterpret_cast<__m256i*>(lanes + 8), cnt1);
            int best = 0;
            while (!((okm >> best) & 1) || lanes[best] != best_count) ++best;
            if (active != -1) {
                const int32_t count_best = lanes[best], count_active = lanes[active];
                _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), rst0);
                _mm256_store_si256(reinterpret_cast<__m256i*>(lanes + 8), rst1);
                if (!(count_best < count_active && lanes[best] <= lanes[active])) result.push_back({active, i});
            }
            active = best;
            active_count = best_count;
        } else {
            active_count += active_bits;
        }
    }
    if (result.empty() || result.back().setting != active) result.push_back({active, 0});
    result.back().end = n;
    return result;
}

int g_kind = -1;  // 0 scalar, 1 AVX2; -1: not chosen yet

int kind() {
    if (g_kind < 0) g_kind = __builtin_cpu_supports("avx2") ? 1 : 0;
    return g_kind;
}

std::vector<Slice> grc_slices(const std::vector<int32_t>& values, bool zero_runs, int uncompressed_bits) {
    return kind() == 1 ? grc_slices_avx2(values, zero_runs, uncompressed_bits)
                       : grc_slices_scalar(values, zero_runs, uncompressed_bits);
}

int64_t weight_bits(const int32_t* v, int64_t len, int setting, int uncompressed_bits) {
    if (len <= 0) return 0;
    const int trunc = W_GRC[setting] >> 4, div = W_GRC[setting] & 15;
    if (trunc == 2) return len * uncompressed_bits;
    int64_t symbols = 0, second = 0;
    if (trunc) {
        symbols = len;
        for (int64_t i = 0; i < len; ++i) second += (v[i] >> div) != 0;
    } else {
        for (int64_t i = 0; i < len; ++i) {
            int64_t q = v[i] >> div;
            symbols += q / 2 + 1;
            second += (q + 1) / 2;
        }
    }
    return 12 * ((symbols + 11) / 12) + second + len * div;
}

int64_t zero_run_bits(const int32_t* r, int64_t len, int setting) {
    if (len <= 0) return 0;
    const int div = Z_GRC[setting] & 15;
    const int64_t chunk = div < 3 ? 12 : 8;
    int64_t symbols = 0;
    for (int64_t i = 0; i < len; ++i) symbols += (r[i] >> div) + 1;
    return chunk * ((symbols + chunk - 1) / chunk) + len * div;
}

// ml_encode_section with a new palette: its bits, or -1 if the slice loop does not terminate (never expected)
int64_t section_bits(const int16_t* s, int n) {
    if (n == 0) return 0;
    Palette pal;
    make_palette(s, n, pal);
    std::vector<int32_t> weights, runs;
    if (pal.zero_runs) {
        std::vector<int> nonzero;
        for (int i = 0; i < n; ++i)
            if (s[i] != 0) nonzero.push_back(i);
        if (pal.only_zeros) nonzero.assign(1, 0);  // the first zero is coded as a weight
        weights.reserve(nonzero.size());
        for (int i : nonzero) weights.push_back(pal.inverse[s[i] + 256]);
        runs.reserve(nonzero.size() + 1);
        int prev = -1;
        for (int i : nonzero) { runs.push_back(i - prev - 1); prev = i; }
        runs.push_back(n - prev - 1);
        if (pal.only_zeros) runs[0] = 0;
    } else {
        weights.resize(n);
        for (int i = 0; i < n; ++i) weights[i] = pal.inverse[s[i] + 256];
    }
    const int64_t nw = static_cast<int64_t>(weights.size()), nr = static_cast<int64_t>(runs.size());
    const std::vector<Slice> ws = grc_slices(weights, false, pal.uncompressed_bits);
    const std::vector<Slice> zs = pal.zero_runs ? grc_slices(runs, true, 0) : std::vector<Slice>();
    const size_t W = ws.size(), Z = zs.size();
    int64_t bits = 0, pos = 0, guard = 4 * (nw + 4);
    size_t iw = 0, iz = 0;
    bool new_palette = true, first_pass = pal.zero_runs;
    while (pos < nw || new_palette || first_pass) {
        if (--guard < 0) return -1;
        const int64_t w_len = iw < W ? std::min(ws[iw].end - pos, MAX_SLICE) : 0;
        const int64_t z_len = iz < Z ? std::min(zs[iz].end - pos, MAX_SLICE) : 0;
        const int w_cfg = w_len ? ws[iw].setting : 0;
        bits += HEADER_BITS + (new_palette ? PALETTE_HEADER_BITS + static_cast<int64_t>(pal.size) * pal.bits : 0);
        if (w_len > 0) bits += weight_bits(weights.data() + pos, std::min(w_len, nw - pos), w_cfg, pal.uncompressed_bits);
        if (pal.zero_runs && z_len) {
            const int64_t start = pos + (new_palette ? 0 : 1);
            const int64_t stop = std::min(start + w_len + (new_palette ? 1 : 0), nr);
            if (start < stop) bits += zero_run_bits(runs.data() + start, stop - start, zs[iz].setting);
        }
        new_palette = first_pass = false;
        if (z_len <= 0 && 0 < w_len) pos += w_len;
        else if (w_len <= 0 && 0 < z_len) pos += z_len;
        else pos += std::min(z_len, w_len);
        if (iw < W && ws[iw].end <= pos) ++iw;
        if (iz < Z && zs[iz].end <= pos) ++iz;
    }
    return bits;
}

int64_t stream_bytes(const int16_t* v, int64_t n) {
    int64_t bits = 0;
    for (int64_t s = 0; s < n; s += SECTION) {
        int64_t b = section_bits(v + s, static_cast<int>(std::min<int64_t>(SECTION, n - s)));
        if (b < 0) return -1;
        bits += b;
    }
    const int64_t nbytes = (bits + EOS_BITS + 7) / 8;
    return (nbytes + PAD_BYTES - 1) / PAD_BYTES * PAD_BYTES;
}

constexpr int DEPTH_FIRST = 0, PART_KERNEL = 1, DEPTHWISE = 2;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// weight_stream.weight_order: EthosUWeightOrdering's sequence of the (O, H, W, I) int8 weights, one stream
void weight_order(const int8_t* w, int depth_out, int kh, int kw, int depth_in, int ofm_block_depth, int how,
                  int ofm_ublock, int ifm_ublock, int dil_y, int dil_x, std::vector<int16_t>& out) {
    const bool pk = how == PART_KERNEL, dw = how == DEPTHWISE;
    const int ifm_block = pk ? 16 : 32;
    const int step_y = 8 / dil_y, step_x = 8 / dil_x;
    const int round_to = (pk || dw) ? 4 : 1;
    const int iz_end = dw ? 1 : depth_in, iz_count = dw ? 1 : ifm_ublock;
    for (int oz = 0; oz < depth_out; oz += ofm_block_depth) {
        const int ofm_depth = std::min(ofm_block_depth, depth_out - oz);
        for (int iz = 0; iz < iz_end; iz += ifm_block) {
            const int ifm_depth = dw ? ifm_ublock : (pk ? std::min(ifm_block, depth_in - iz) : ifm_block);
            const int outer = pk ? ifm_depth : 1, inner = pk ? 1 : ifm_depth;
            for (int sy = 0; sy < kh; sy += step_y) {
                const int sub_h = std::min(kh - sy, step_y);
                for (int sx = 0; sx < kw; sx += step_x) {
                    const int sub_w = std::min(kw - sx, step_x);
                    const int elems = static_cast<int>(ceil_div(sub_w * sub_h, round_to) * round_to);
                    for (int i_outer = 0; i_outer < outer; i_outer += ifm_ublock)
                        for (int o_ublock = 0; o_ublock < ofm_depth; o_ublock += ofm_ublock)
                            for (int e = 0; e < elems; ++e) {
                                const int ky = e / sub_w, kx = e % sub_w;
                                for (int i_inner = 0; i_inner < inner; i_inner += ifm_ublock)
                                    for (int o_z = 0; o_z < ofm_ublock; ++o_z) {
                                        const int ofm_z = oz + o_ublock + o_z;
                                        const bool row_ok = ofm_z < depth_out && ky < sub_h;
                                        const int8_t* row = row_ok
                                            ? w + ((static_cast<int64_t>(ofm_z) * kh + sy + ky) * kw + sx + kx) * depth_in
                                            : nullptr;
                                        for (int i_z = 0; i_z < iz_count; ++i_z) {
                                            const int ifm_z = iz + i_inner + i_outer + i_z;
                                            out.push_back(row_ok && ifm_z < depth_in ? row[ifm_z] : 0);
                                        }
                                    }
                            }
                }
            }
        }
    }
}

}  // namespace

extern "C" {

// The search kernel in use (0 scalar, 1 AVX2); force >= 0 picks one (AVX2 only where the CPU has it).
int npr_codec_kind(int force) {
    if (force == 0 || (force == 1 && __builtin_cpu_supports("avx2"))) g_kind = force;
    return kind();
}

// Encoded bytes of one stream of n values in -255..255 (padded to 16), or -1 on an internal inconsistency.
int64_t npr_codec_stream_bytes(const int16_t* values, int64_t n) { return stream_bytes(values, n); }

// The weights in the order the codec reads them; writes min(count, capacity) values, returns the count.
int64_t npr_codec_weight_order(const int8_t* w, int depth_out, int kh, int kw, int depth_in, int ofm_block_depth,
                               int how, int ofm_ublock, int ifm_ublock, int dil_y, int dil_x, int16_t* out,
                               int64_t capacity) {
    std::vector<int16_t> seq;
    weight_order(w, depth_out, kh, kw, depth_in, ofm_block_depth, how, ofm_ublock, ifm_ublock, dil_y, dil_x, seq);
    const int64_t n = static_cast<int64_t>(seq.size());
    std::copy(seq.begin(), seq.begin() + std::min(n, capacity), out);
    return n;
}

// Encoded bytes of a layer's weights: weight_order then stream_bytes in one call.
int64_t npr_codec_layer_bytes(const int8_t* w, int depth_out, int kh, int kw, int depth_in, int ofm_block_depth,
                              int how, int ofm_ublock, int ifm_ublock, int dil_y, int dil_x) {
    std::vector<int16_t> seq;
    weight_order(w, depth_out, kh, kw, depth_in, ofm_block_depth, how, ofm_ublock, ifm_ublock, dil_y, dil_x, seq);
    return stream_bytes(seq.data(), static_cast<int64_t>(seq.size()));
}

}  // extern "C"
