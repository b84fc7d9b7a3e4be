"""C++ integer engine (1 thread) vs LiteRT BUILTIN_REF (1 thread) on every architecture of experiment
`bitexact-realworld` (run by `make bench`).

Each architecture is prepared exactly as the experiment prepares it (``runners.bitexact_realworld.prepare``:
library export at the spec's image size with random-initialised weights, or the trained zoo checkpoint;
minmax PTQ; integer export), on ``N`` inputs. In the same test, both contenders run the same images:
the C++ engine takes the batch at once (image by image for graphs that move the batch axis), LiteRT its
batch-1 graph image by image. Goal (issue 18): C++ at least as fast as LiteRT BUILTIN_REF — the ratio
``cpp / litert`` (best of ``ROUNDS``) must be ≤ 1; it is stored in the benchmark's ``extra_info``.
Fairness: each contender runs once untimed first (one-off work — the C++ side's weight packing, LiteRT's
first invoke — stays outside the timing on both sides), then the timed rounds alternate between the two
so a change in machine load hits both alike.
"""
from __future__ import annotations

import time
import tomllib

import numpy as np
import pytest

from npuready.paths import experiments_dir

N = 16
ROUNDS = 3
SPEC = tomllib.loads((experiments_dir() / "bitexact-realworld" / "spec.toml").read_text(encoding="utf-8"))
ENTRIES = {m["name"]: m for m in SPEC["params"]["models"]}


def _best_alternating(fns, rounds: int = ROUNDS) -> list[float]:
    """Best wall time of each function over ``rounds`` rounds that run them one after the other."""
    for fn in fns:  # warm-up, untimed
        fn()
    best = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            t = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t)
    return best


@pytest.fixture(scope="module", params=sorted(ENTRIES))
def prepared(request):
    from npuready.experiments.runners.bitexact_realworld import prepare
    from npuready.paths import zoo_dir

    entry = ENTRIES[request.param]
    if entry.get("source") == "zoo" and not (zoo_dir() / f"{entry['name']}.onnx").is_file():
        pytest.skip(f"zoo/{entry['name']}.onnx missing (not trained yet)")
    params = {**SPEC["params"], "images": N, "calibration_images": 8}
    return request.param, prepare(entry, params)


def test_cpp_at_least_as_fast_as_litert_reference(benchmark, prepared):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    from npuready.engine import cpp_engine, numpy_engine
    from npuready.tflite.export import export_int8_from_qdq
    from npuready.tflite.tensor_map import read_tensor_map

    name, prep = prepared
    graph, x = prep["graph"], prep["x"]
    cpp_engine.library()  # build outside the timing
    tfl = export_int8_from_qdq(prep["qdq"])
    ref = read_tensor_map(tfl)
    feed = ref.tensors[ref.inputs[0]]
    codes = numpy_engine.run(graph, x, keep=True)[graph.ops[0].outputs[0]]
    interp = Interpreter(model_content=tfl, experimental_op_resolver_type=OpResolverType.BUILTIN_REF, num_threads=1)
    interp.allocate_tensors()
    feeds = [np.ascontiguousarray(feed.to_tflite(codes[i:i + 1])) for i in range(len(x))]

    def litert():
        for f in feeds:
            interp.set_tensor(feed.tflite_index, f)
            interp.invoke()

    def cpp():
        cpp_engine.run(graph, x, False)

    litert_s, cpp_s = _best_alternating([litert, cpp])
    benchmark.extra_info.update({"model": name, "images": len(x), "litert_ref_s": litert_s, "cpp_s": cpp_s,
                                 "cpp_over_litert": cpp_s / litert_s})
    benchmark.pedantic(cpp, rounds=1, iterations=1)
    assert cpp_s <= litert_s, f"{name}: C++ {cpp_s:.3f} s vs LiteRT BUILTIN_REF {litert_s:.3f} s"
