"""Small float ONNX models and calibration folders for the deploy tests (built in code, seeded)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import helper

from npuready.lint.examples import const, model, value, weights

N = helper.make_node


def classifier(name: str = "small_cnn", activation: str = "Relu", tied: bool = False) -> onnx.ModelProto:
    """Conv(1→8)+act → Conv(8→16, stride 2)+act → GAP → Gemm(16→10), input 1×1×28×28.

    ``tied``: the Gemm's ten rows are equal and the biases rise by 1e-5 per class, so float picks class 9
    while the int8 output codes of all classes are equal and argmax picks class 0 (the parity gate must block).
    """
    fc = np.asarray(onnx.numpy_helper.to_array(weights("fc.w", (10, 16), seed=3)))
    bias = np.zeros(10, np.float32)
    if tied:
        fc = np.tile(fc[:1], (10, 1))
        bias = 1e-5 * np.arange(10, dtype=np.float32)
    inits = [weights("c1.w", (8, 1, 3, 3), seed=1), const("c1.b", np.zeros(8, np.float32)),
             weights("c2.w", (16, 8, 3, 3), seed=2), const("c2.b", np.zeros(16, np.float32)),
             const("fc.w", fc.astype(np.float32)), const("fc.b", bias)]
    nodes = [N("Conv", ["x", "c1.w", "c1.b"], ["a"], name="conv1", kernel_shape=[3, 3], pads=[1] * 4),
             N(activation, ["a"], ["ar"], name="act1"),
             N("Conv", ["ar", "c2.w", "c2.b"], ["b"], name="conv2", kernel_shape=[3, 3], pads=[1] * 4, strides=[2, 2]),
             N("Relu", ["b"], ["br"], name="act2"),
             N("GlobalAveragePool", ["br"], ["g"], name="gap"), N("Flatten", ["g"], ["f"], name="flatten"),
             N("Gemm", ["f", "fc.w", "fc.b"], ["logits"], name="fc", transB=1)]
    return model(nodes, [value("x", [1, 1, 28, 28])], [value("logits", [1, 10])], inits, name=name)


def save(m: onnx.ModelProto, path: Path) -> Path:
    onnx.save(m, path)
    return path


def calib_folder(folder: Path, m: onnx.ModelProto, n: int = 40, seed: int = 0,
                 labelled: bool = True) -> Path:
    """``n`` random inputs (each scaled by a random factor in 0.2..4) as .npy; labelled: one sub-folder per class, the
    class being the float model's own top-1 (so float accuracy is 1.0 and the gate's accuracy drop is the integer
    model's error)."""
    import onnxruntime as ort

    rng = np.random.default_rng(seed)
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    for i in range(n):
        x = rng.random((1, 1, 28, 28), dtype=np.float32) * np.float32(rng.uniform(0.2, 4.0))
        label = int(np.argmax(sess.run(None, {"x": x})[0]))
        sub = folder / str(label) if labelled else folder
        sub.mkdir(parents=True, exist_ok=True)
        np.save(sub / f"in_{i:03d}.npy", x)
    return folder
