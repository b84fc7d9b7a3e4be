"""Every task starts with torch on one thread, whatever ran before it in the same process.

A task that sets torch's thread count (activation-swap, pruning) must not change the float sums of the next task
that process runs: intake's recovery training read 0.868 instead of 0.874 after activation-swap had run on the
same worker. Tasks that want more threads set them themselves. Before torch is imported, the environment
variable it reads at import does the same. The executors (``sweep.run_serial``, the Dask backend) call this, not
the runners, so it is not part of any runner's code fingerprint.
"""
from __future__ import annotations

import os
import sys

from npuready.experiments.task import Job, Outcome, execute


def pin_torch_threads() -> None:
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
    else:
        os.environ["OMP_NUM_THREADS"] = "1"


def execute_pinned(job: Job) -> Outcome:
    """``task.execute`` after ``pin_torch_threads``."""
    pin_torch_threads()
    return execute(job)
