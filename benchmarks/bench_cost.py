"""Benchmark: npuready's cost estimate vs SCALE-Sim 3.0.0 on the same conv/FC layers, timed in one run.

Layers: every conv/FC layer of ``resnet20_like`` (CIFAR ResNet-20 shapes, 32x32x3) on tiny-1's 32x32
output-stationary array. Ours: ``npuready.cost.estimate`` of the whole loaded graph (every node, not
only conv/FC) — the median of many rounds. SCALE-Sim: one subprocess run in ``.venv-scalesim``
(made by ``bash tools/scalesim_env.sh``; skipped when absent), wall time including interpreter start.
Goal: ours >= 1000x faster. The measured ratio is printed and stored in the benchmark's extra_info.
"""
import statistics
import tempfile
import time
from pathlib import Path

import pytest

from npuready.cost import estimate, scalesim
from npuready.cost.examples import resnet20_like
from npuready.cost.model import gemm_mapping
from npuready.cost.workload import workload
from npuready.graph import load
from npuready.targets import load_target

REPO = Path(__file__).resolve().parents[1]
TARGET = "tiny-1"
GOAL = 1000.0


def test_cost_vs_scalesim_speed(benchmark):
    python = scalesim.python_path(REPO)
    if python is None:
        pytest.skip(".venv-scalesim missing: run bash tools/scalesim_env.sh")
    graph = load(resnet20_like())
    target = load_target(TARGET)
    nodes = [(n, layer) for n in graph.nodes if (layer := scalesim.sim_layer(graph, n)) is not None]

    report = benchmark.pedantic(estimate, args=(graph, target), rounds=30, warmup_rounds=2)
    ours_s = statistics.median(benchmark.stats.stats.data)

    with tempfile.TemporaryDirectory(prefix="npuready-bench-scalesim-") as tmp:
        start = time.perf_counter()
        rows = scalesim.run([layer for _, layer in nodes], target.array_rows, target.array_cols, Path(tmp), python)
        scalesim_s = time.perf_counter() - start

    # same layers, same answer: the timing compares like with like
    for (node, layer), row in zip(nodes, rows):
        assert gemm_mapping(workload(graph, node), target).cycles == row["total_cycles"] * layer.repeat
    assert report.layers

    ratio = scalesim_s / ours_s
    benchmark.extra_info.update({"layers": len(nodes), "scalesim_s": round(scalesim_s, 3),
                                 "ours_median_s": round(ours_s, 6), "speedup": round(ratio, 1), "goal": GOAL})
    print(f"\ncost estimate {ours_s * 1e3:.2f} ms vs SCALE-Sim {scalesim_s:.2f} s on {len(nodes)} layers: "
          f"{ratio:.0f}x faster (goal {GOAL:.0f}x)")
    assert ratio >= GOAL
