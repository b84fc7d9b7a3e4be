import sys
from pathlib import Path

import numpy as np
import onnx
import pytest

ENGINE_TESTS = Path(__file__).parents[1] / "engine"
sys.path.insert(0, str(ENGINE_TESTS))

import models  # noqa: E402


@pytest.fixture(scope="session")
def ladder_files(tmp_path_factory):
    """float.onnx, qdq.onnx (the committed cnn fixture), other.onnx (unrelated float model), data.npz."""
    d = tmp_path_factory.mktemp("ladder")
    onnx.save(models.cnn(), d / "float.onnx")
    onnx.save(models.elementwise(), d / "other.onnx")
    qdq = ENGINE_TESTS / "data" / "cnn_qdq.onnx"
    x = models.calibration(24, seed=21)[:, 0] * 1.5
    sess = __import__("onnxruntime").InferenceSession(str(d / "float.onnx"), providers=["CPUExecutionProvider"])
    y = np.concatenate([sess.run(None, {"x": x[i:i + 1]})[0] for i in range(len(x))]).argmax(1)
    np.savez(d / "data.npz", x=x, y=y)  # labels = float predictions: float accuracy is 1 by construction
    return {"float": d / "float.onnx", "qdq": qdq, "other": d / "other.onnx", "data": d / "data.npz"}


@pytest.fixture(scope="session")
def tinycnn_qdq():
    """(float zoo tinycnn, its QDQ model: minmax on 32 training images, seed 0, 60 Fashion-MNIST test inputs)."""
    from npuready.quant.inputs import load_inputs
    from npuready.quant.zoo_qdq import quantize_zoo

    fm, qdq = quantize_zoo("tinycnn", "minmax", 32, 0)
    return fm, qdq, load_inputs("fashion-mnist:test", 60)
