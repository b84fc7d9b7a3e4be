import numpy as np
import onnxruntime as ort

from npuready.partition.examples import example_inputs, uint8_classifier
from npuready.runtime import nhwc_to_nchw, normalize, to_float


def test_head_functions_reproduce_the_uint8_classifier_graph_head():
    model = uint8_classifier()
    model.graph.output.append(model.graph.value_info.add())  # expose the Transpose output
    model.graph.output[-1].name = "nchw"
    model.graph.output[-1].type.tensor_type.elem_type = 1
    feeds = example_inputs(model, seed=4)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    ref = sess.run(["nchw"], feeds)[0]
    mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
    got = nhwc_to_nchw(normalize(to_float(feeds["image"]), mean, std))
    assert got.shape == (1, 3, 32, 32) and got.flags["C_CONTIGUOUS"]
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-5)
