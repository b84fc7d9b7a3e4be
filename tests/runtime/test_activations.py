import numpy as np

from npuready.runtime import relu, sigmoid, softmax
from ort_op import run_op

X = np.random.default_rng(0).normal(0, 8, size=(2, 3, 50)).astype(np.float32)


def test_sigmoid_matches_onnxruntime():
    np.testing.assert_allclose(sigmoid(X), run_op("Sigmoid", {"x": X}), rtol=0, atol=1e-6)


def test_sigmoid_saturates_without_overflow():
    with np.errstate(over="raise"):
        out = sigmoid(np.array([-1000.0, 0.0, 1000.0], np.float32))
    assert out.tolist() == [0.0, 0.5, 1.0]
    assert out.dtype == np.float32


def test_softmax_matches_onnxruntime():
    np.testing.assert_allclose(softmax(X, axis=1), run_op("Softmax", {"x": X}, axis=1), rtol=0, atol=1e-6)


def test_relu_matches_onnxruntime():
    np.testing.assert_array_equal(relu(X), run_op("Relu", {"x": X}))
