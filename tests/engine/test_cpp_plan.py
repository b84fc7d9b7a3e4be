"""The C++ twin's per-graph plan (engine/cpp_plan.py): a replayed run equals the NumPy engine on new data,
returns copies, and replays C++ calls rather than running every kernel from Python."""
import threading

import numpy as np
import pytest

from npuready.engine import cpp_engine, cpp_plan, numpy_engine
from npuready.engine.export import export_integer_graph


def _x(seed: int, n: int = 3) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((n, 1, 28, 28)).astype(np.float32) * 2


def _plan(graph, x):
    return cpp_plan._PLANS[id(graph)][1][(tuple(x.shape), x.dtype.str)]


@pytest.mark.parametrize("name", ["cnn", "elementwise", "attention", "attention_lite"])
def test_replayed_runs_equal_numpy_on_new_data(qdq_models, name):
    graph = export_integer_graph(qdq_models[name])
    batch = 3 if graph.batchable else 1
    first, second, third = _x(1, batch), _x(2, batch), _x(3, batch)
    cpp_engine.run(graph, first, keep=False)  # builds the plan
    for x in (second, third):  # replays it: a stale copy of the first input would show here
        want, got = numpy_engine.run(graph, x), cpp_engine.run(graph, x)
        assert sorted(want) == sorted(got)
        assert {k: int((want[k] != got[k]).sum()) for k in want} == {k: 0 for k in want}
    kept = cpp_engine.run(graph, third, keep=False)
    assert sorted(kept) == sorted(graph.outputs)
    assert all(np.array_equal(kept[o], want[o]) for o in graph.outputs)


def test_plan_replays_calls_and_returns_copies(qdq_models):
    graph = export_integer_graph(qdq_models["cnn"])
    x = _x(4)
    a = cpp_engine.run(graph, x, keep=False)
    plan = _plan(graph, x)
    kinds = {op.name: op.kind for op in graph.ops}
    assert {kinds[n] for n in plan.replayed} >= {"Conv", "Quantize"}
    assert sorted(plan.replayed + plan.direct) == sorted(kinds)
    out = graph.outputs[0]
    a[out][...] = 0  # the caller's array is its own, not the plan's buffer
    b = cpp_engine.run(graph, x, keep=False)
    assert np.array_equal(b[out], numpy_engine.run(graph, x, keep=False)[out])
    assert not np.array_equal(a[out], b[out])


def _squeeze_excite():
    """Conv, a per-channel gate (GlobalAveragePool, Sigmoid) multiplied back (broadcast Mul), a broadcast Add
    of a per-channel constant, GAP, Gemm."""
    import models
    from onnx import helper as h
    from onnx import numpy_helper as nh

    rng = np.random.default_rng(11)
    inits = [models._init(rng, "w1", (6, 1, 3, 3)), models._init(rng, "b1", (6,), 0.1),
             models._init(rng, "shift", (1, 6, 1, 1), 0.5), models._init(rng, "wf", (10, 6)),
             models._init(rng, "bf", (10,), 0.1), nh.from_array(np.array([1, 6], np.int64), "flat")]
    nodes = [h.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             h.make_node("GlobalAveragePool", ["c1"], ["g"]), h.make_node("Sigmoid", ["g"], ["s"]),
             h.make_node("Mul", ["c1", "s"], ["m"]), h.make_node("Add", ["m", "shift"], ["a"]),
             h.make_node("GlobalAveragePool", ["a"], ["g2"]), h.make_node("Reshape", ["g2", "flat"], ["f"]),
             h.make_node("Gemm", ["f", "wf", "bf"], ["y"], transB=1)]
    return models._model(nodes, inits, [1, 10])


def test_broadcast_operands_are_refreshed_every_run(tmp_path):
    import models

    graph = export_integer_graph(models.quantize(_squeeze_excite(), tmp_path))
    cpp_engine.run(graph, _x(4), keep=False)
    for seed in (5, 6, 7):
        x = _x(seed)
        assert all(np.array_equal(cpp_engine.run(graph, x)[k], v) for k, v in numpy_engine.run(graph, x).items())
    plan = _plan(graph, x)
    broadcast = [op.name for op in graph.ops if op.kind in ("Add", "Mul")
                 and plan.values[op.inputs[0]].shape != plan.values[op.inputs[1]].shape]
    assert broadcast and set(broadcast) <= set(plan.replayed)


def test_a_busy_plan_is_not_shared_between_threads(qdq_models):
    graph = export_integer_graph(qdq_models["cnn"])
    x = _x(8)
    cpp_engine.run(graph, x, keep=False)
    plan = _plan(graph, x)
    results = {}
    with plan.lock:  # held as by a run in progress elsewhere: this run takes the direct path
        t = threading.Thread(target=lambda: results.update(cpp_engine.run(graph, _x(9), keep=False)))
        t.start()
        t.join()
    want = numpy_engine.run(graph, _x(9), keep=False)
    assert all(np.array_equal(results[k], want[k]) for k in want)


def test_plans_per_graph_are_bounded(qdq_models):
    graph = export_integer_graph(qdq_models["cnn"])
    for n in (1, 2, 3, 4):
        cpp_engine.run(graph, _x(n, n), keep=False)
    assert len(cpp_plan._PLANS[id(graph)][1]) == cpp_plan.PLANS_PER_GRAPH


def test_a_plan_is_kept_only_for_output_runs_within_its_byte_budget(qdq_models, monkeypatch):
    graph = export_integer_graph(qdq_models["cnn"])
    x = _x(10)
    want = numpy_engine.run(graph, x)
    got = cpp_engine.run(graph, x)  # every tensor asked for: recorded, handed over, not kept
    assert all(np.array_equal(got[k], want[k]) for k in want)
    assert id(graph) not in cpp_plan._PLANS or not cpp_plan._PLANS[id(graph)][1]
    monkeypatch.setattr(cpp_plan, "PLAN_BYTES", 0)  # a batch too large to keep
    out = cpp_engine.run(graph, x, keep=False)
    assert not cpp_plan._PLANS[id(graph)][1]
    assert all(np.array_equal(out[o], want[o]) for o in graph.outputs)
    monkeypatch.setattr(cpp_plan, "PLAN_BYTES", 64 << 20)
    cpp_engine.run(graph, x, keep=False)
    assert len(cpp_plan._PLANS[id(graph)][1]) == 1
