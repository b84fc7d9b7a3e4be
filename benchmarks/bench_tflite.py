"""Exporter and LiteRT-runner speed on a small residual block (pytest-benchmark; run by `make bench`)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "tflite"))

from tflite_models import residual  # noqa: E402

from npuready.tflite import export_float, run_litert  # noqa: E402


def test_export_float_residual(benchmark):
    model = residual()
    tfl = benchmark(export_float, model)
    assert len(tfl) > 0


def test_run_litert_reference_residual(benchmark):
    import numpy as np

    tfl = export_float(residual())
    x = np.random.default_rng(0).standard_normal((1, 8, 6, 6)).astype(np.float32)
    got = benchmark(run_litert, tfl, {"input": x})
    assert got.mapping.outputs[0] in got.onnx
