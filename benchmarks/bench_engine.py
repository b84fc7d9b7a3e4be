"""Integer engine speed: C++ twin (1 thread) vs LiteRT BUILTIN_REF vs NumPy engine (run by `make bench`).

Same QDQ model (zoo ResNet-20 / MobileNetV2 quantised with minmax on 64 Fashion-MNIST train images)
and the same 32 test images for every contender. Goals (issue #6): C++ at least as fast as LiteRT's
reference kernels; NumPy at most 3x slower than C++. BLAS is limited to one thread so the NumPy
engine is single-threaded too. LiteRT runs its batch-1 graph image by image; our engines take the
batch at once (same images, same work).
"""
from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from npuready.paths import zoo_dir

MODELS = ["resnet20", "mobilenetv2"]
N = 32


@pytest.fixture(scope="module", params=MODELS)
def setup(request):
    import onnx

    from npuready.engine.export import export_integer_graph
    from npuready.quant.inputs import load_inputs
    from npuready.quant.ptq import quantize_model

    path = zoo_dir() / f"{request.param}.onnx"
    if not path.is_file():
        pytest.skip(f"{path} missing (zoo not trained)")
    calib = load_inputs("fashion-mnist:train", 64).x
    qdq = quantize_model(onnx.load(path), [calib[i:i + 1] for i in range(len(calib))], "minmax")
    graph = export_integer_graph(qdq)
    x = load_inputs("fashion-mnist:test", N).x
    return request.param, qdq, graph, x


def test_cpp_engine(benchmark, setup):
    from npuready.engine import cpp_engine

    _, _, graph, x = setup
    cpp_engine.library()  # build outside the timing
    out = benchmark(cpp_engine.run, graph, x, False)
    assert out[graph.outputs[0]].shape[0] == N


def test_numpy_engine(benchmark, setup):
    from npuready.engine import numpy_engine

    _, _, graph, x = setup
    with threadpool_limits(1):
        out = benchmark(numpy_engine.run, graph, x, False)
    assert out[graph.outputs[0]].shape[0] == N


def test_litert_reference(benchmark, setup):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    from npuready.engine import numpy_engine
    from npuready.tflite.export import export_int8_from_qdq
    from npuready.tflite.tensor_map import read_tensor_map

    _, qdq, graph, x = setup
    tfl = export_int8_from_qdq(qdq)
    mapping = read_tensor_map(tfl)
    ref = mapping.tensors[mapping.inputs[0]]
    codes = numpy_engine.run(graph, x)[graph.ops[0].outputs[0]]
    interp = Interpreter(model_content=tfl, experimental_op_resolver_type=OpResolverType.BUILTIN_REF, num_threads=1)
    interp.allocate_tensors()
    feeds = [np.ascontiguousarray(ref.to_tflite(codes[i:i + 1])) for i in range(N)]

    def run_all():
        for f in feeds:
            interp.set_tensor(ref.tflite_index, f)
            interp.invoke()

    benchmark(run_all)
