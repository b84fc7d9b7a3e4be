import numpy as np

from npuready.runtime import argmax, reduce_max, topk
from ort_op import run_op

RNG = np.random.default_rng(1)
X = RNG.integers(0, 5, size=(3, 7, 4)).astype(np.float32)  # many ties on purpose


def test_argmax_matches_onnxruntime_with_ties():
    for axis in (0, 1, 2):
        for last in (0, 1):
            ref = run_op("ArgMax", {"x": X}, axis=axis, keepdims=1, select_last_index=last)
            np.testing.assert_array_equal(argmax(X, axis=axis, select_last_index=bool(last)), ref)
    assert argmax(X, axis=1, keepdims=False).shape == (3, 4)


def test_topk_matches_onnxruntime_values_and_indices():
    y = RNG.permutation(40).astype(np.float32).reshape(2, 20)  # distinct values: indices are unique
    vals, idx = run_op("TopK", {"x": y}, n_outputs=2, constants={"k": np.array([5], np.int64)}, axis=1)
    got_v, got_i = topk(y, 5, axis=1)
    np.testing.assert_array_equal(got_v, vals)
    np.testing.assert_array_equal(got_i, idx)


def test_reduce_max_matches_onnxruntime():
    np.testing.assert_array_equal(reduce_max(X, axes=(1,)), run_op("ReduceMax", {"x": X}, axes=[1], keepdims=1))
