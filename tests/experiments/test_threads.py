"""A task's arithmetic does not depend on what ran before it in the same process (torch's thread count)."""
import sys
from pathlib import Path

import pytest

from npuready.experiments.sweep import run_serial
from npuready.experiments.task import Job, Task

sys.path.insert(0, str(Path(__file__).parent))  # sweep_demo_runner


def test_every_task_starts_with_torch_on_one_thread(tmp_path):
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)  # what activation-swap and pruning leave behind on a worker
        job = Job("demo-sweep", "sweep_demo_runner", {"numbers": [3], "log_dir": str(tmp_path)}, str(tmp_path),
                  Task("n3", {"n": 3}))
        assert run_serial(job).output == {"n": 3, "square": 9, "sqrt": 3 ** 0.5}
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
