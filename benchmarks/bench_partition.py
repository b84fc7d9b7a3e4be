"""Benchmark: `npuready partition` planning of onnx's light_resnet50.onnx (load + lint + place + segments).

Target: median < 200 ms on the project machine (2 shared cores). Run with `make bench`.
"""
from pathlib import Path

import onnx

from npuready.partition import plan_partition

MODEL = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light" / "light_resnet50.onnx"


def test_partition_light_resnet50(benchmark):
    plan = benchmark.pedantic(plan_partition, args=(MODEL, "edge-10"), rounds=15, warmup_rounds=1)
    assert plan.total_macs > 0 and plan.segments
