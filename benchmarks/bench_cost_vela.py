"""Benchmark: npuready's cost estimate on the Ethos-U55 mirror vs Arm Vela 5.2.0 compiling the same model, timed
in one run.

Model: RepVGG-A0 built by timm (random-initialised, 128 x 128 input, as experiment ``cost-vs-vela`` builds it),
8.3 M weights, most of them in weight-bound 3x3 convs, so the mirror's weight codec (``npuready.cost.weight_stream``:
Vela's encoder re-implemented in NumPy to size each layer's weight stream exactly) does most of the work. Ours:
``npuready.cost.estimate`` of the loaded graph on ``ethos-u55-128`` with the codec's size cache emptied before each
round (a cold start, as a user's first ``npuready cost`` is). Vela: ``python -m ethosu.vela`` on the INT8 TFLite of
the same graph with ``--verbose-performance`` (its weight encoding, scheduling and performance estimate), wall time
including interpreter start. Rounds alternate between the two so a change in machine load hits both alike.
Goal: ours within 4x of Vela's time (ratio vela / ours >= 0.25) — a guard on the cost of exact weight sizes, not a
claim to be faster than Vela's C++ encoder. The measured ratio is printed and stored in ``extra_info``.
"""
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from npuready.cost import estimate, weight_stream
from npuready.graph import load
from npuready.targets import load_target

MODEL, IMAGE_SIZE, TARGET = "repvgg_a0", 128, "ethos-u55-128"
ROUNDS = 2
GOAL = 0.25


def test_cost_on_ethos_mirror_vs_vela_speed(benchmark):
    pytest.importorskip("ethosu.vela")
    from npuready.experiments.runners.cost_vs_vela import _int8_tflite
    from npuready.models.library.export import cached_onnx

    graph = load(cached_onnx(MODEL, image_size=IMAGE_SIZE))
    target = load_target(TARGET)
    ours, vela = [], []
    with tempfile.TemporaryDirectory(prefix="npuready-bench-vela-") as tmp:
        tfl = Path(tmp) / f"{MODEL}.tflite"
        tfl.write_bytes(_int8_tflite(graph, 0, 4))
        for i in range(ROUNDS):
            weight_stream._SIZES.clear()
            start = time.perf_counter()
            report = estimate(graph, target)
            ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "ethosu.vela", str(tfl), "--accelerator-config", TARGET,
                            "--verbose-performance", "--output-dir", str(Path(tmp) / f"out{i}")],
                           check=True, capture_output=True)
            vela.append(time.perf_counter() - start)
    assert report.layers
    weight_stream._SIZES.clear()
    benchmark.pedantic(estimate, args=(graph, target), rounds=1, iterations=1)
    ours_s, vela_s = min(ours), min(vela)
    ratio = vela_s / ours_s
    benchmark.extra_info.update({"model": MODEL, "ours_s": round(ours_s, 3), "vela_s": round(vela_s, 3),
                                 "vela_over_ours": round(ratio, 3), "goal": GOAL})
    print(f"\n{MODEL} on {TARGET}: cost estimate {ours_s:.2f} s vs Vela {vela_s:.2f} s (ratio {ratio:.2f}, goal >= {GOAL})")
    assert ratio >= GOAL
