import numpy as np
from onnx.reference import ReferenceEvaluator

from npuready.preprocess.example_models import conv_classifier


def test_classifier_shapes_and_determinism():
    a, b = conv_classifier(size=32, seed=5), conv_classifier(size=32, seed=5)
    assert a.SerializeToString() == b.SerializeToString()
    assert [n.op_type for n in a.graph.node] == ["Conv", "Relu", "Conv", "Relu", "GlobalAveragePool", "Flatten", "Gemm"]
    out = ReferenceEvaluator(a).run(None, {"image": np.zeros((1, 3, 32, 32), np.float32)})[0]
    assert out.shape == (1, 10)
