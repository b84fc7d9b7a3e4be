"""Benchmark: whole-process cost of the command line against a bare ``python -c "import onnx, numpy"``.

Every timing is a fresh interpreter (subprocess wall time, interpreter start included), measured in
the same run as the reference (once per run of this file), so the ratios hold on a loaded machine
where absolute seconds do not.
Goals: ``npuready --help`` and every ``npuready VERB --help`` cost at most half of the bare import;
a whole-process ``npuready lint zoo/resnet20.onnx`` stays within 1.5x of it.
The ratios (medians of ROUNDS runs each) are printed and stored in the benchmark's extra_info.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from npuready.cli import COMMANDS

REPO = Path(__file__).resolve().parents[1]
MODEL = REPO / "zoo" / "resnet20.onnx"
ROUNDS = 3
HELP_GOAL = 0.5
LINT_GOAL = 1.5


def _wall(argv: list[str]) -> float:
    """Median wall seconds of ROUNDS fresh processes running ``argv`` (stdout discarded)."""
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "npuready.cli", *args]


@pytest.fixture(scope="module")
def reference() -> float:
    """The bare import, measured once per run of this file."""
    return _wall([sys.executable, "-c", "import onnx, numpy"])


def _ratio(benchmark, reference: float, argv: list[str], what: str, goal: float) -> None:
    """Time ``argv`` against the bare import, record the ratio and check it against ``goal``."""
    seconds = benchmark.pedantic(_wall, args=(argv,), rounds=1, iterations=1)
    ratio = seconds / reference
    benchmark.extra_info.update({"seconds": round(seconds, 3), "bare_import_s": round(reference, 3),
                                 "ratio": round(ratio, 3), "goal": goal})
    print(f"\n{what} {seconds:.3f} s vs import onnx, numpy {reference:.3f} s: ratio {ratio:.2f} (goal <= {goal})")
    assert ratio <= goal


@pytest.mark.parametrize("verb", ["", *COMMANDS])
def test_help_costs_at_most_half_a_bare_onnx_import(benchmark, reference, verb):
    argv = _cli(verb, "--help") if verb else _cli("--help")
    _ratio(benchmark, reference, argv, f"npuready {verb} --help".replace("  ", " "), HELP_GOAL)


def test_whole_process_lint_within_1_5x_of_a_bare_onnx_import(benchmark, reference):
    _ratio(benchmark, reference, _cli("lint", str(MODEL)), f"npuready lint {MODEL.name}", LINT_GOAL)
