"""The task metrics, by ``--task`` name (an explicit registry)."""
from __future__ import annotations

from npuready.errors import InputError
from npuready.verify.tasks import NAMES
from npuready.verify.tasks.classification import CLASSIFICATION
from npuready.verify.tasks.dense import DENSE
from npuready.verify.tasks.detection import DETECTION
from npuready.verify.tasks.metric import TaskMetric
from npuready.verify.tasks.regression import REGRESSION
from npuready.verify.tasks.sequence import SEQUENCE

TASKS: dict[str, TaskMetric] = {m.name: m for m in (CLASSIFICATION, DENSE, SEQUENCE, DETECTION, REGRESSION)}
assert tuple(TASKS) == NAMES, "verify/tasks/__init__.py NAMES must list the registry's tasks in order"


def get(name: str) -> TaskMetric:
    if name not in TASKS:
        raise InputError(f"--task {name}: unknown task; use one of {', '.join(TASKS)}")
    return TASKS[name]
