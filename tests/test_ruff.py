"""The lint gate: ruff (pinned in the dev extra, configured in pyproject.toml) passes over the source tree."""
import subprocess
import sys

from npuready.paths import repo_root

_PATHS = ["generator", "tests", "benchmarks", "tools"]


def test_ruff_check_passes_over_generator_tests_benchmarks_and_tools():
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *_PATHS],
                          capture_output=True, text=True, cwd=repo_root())
    assert proc.returncode == 0, proc.stdout + proc.stderr
