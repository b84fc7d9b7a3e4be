"""The C++ twin's packed weight layouts (cpp/ops/pairgemm.h): pairs of k per row, and pair columns."""
import numpy as np

from npuready.engine import cpp_weights


def test_weight_pairs_pack_low_then_high_half():
    w = np.array([[1, -1, -128], [127, 0, 5]], np.int8)
    pairs = cpp_weights.weight_pairs(w)
    assert pairs.shape == (2, 2) and pairs.dtype == np.int32
    assert pairs.view(np.int16).reshape(2, 4).tolist() == [[1, -1, -128, 0], [127, 0, 5, 0]]


def test_weight_cols_hold_the_transposed_pairs_with_zero_padding():
    w = np.array([[1, 2, 3], [-4, 5, -6]], np.int8)
    cols = cpp_weights.weight_cols(w, tile_cols=4)
    assert cols.shape == (2, 4, 2) and cols.dtype == np.int16
    assert cols[0].tolist() == [[1, 2], [-4, 5], [0, 0], [0, 0]]
    assert cols[1].tolist() == [[3, 0], [-6, 0], [0, 0], [0, 0]]
