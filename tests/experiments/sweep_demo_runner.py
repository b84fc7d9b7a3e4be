"""A split runner for the sweep tests (imported by name on Dask workers through PYTHONPATH).

Task ``n<k>`` returns k squared and its square root; every execution leaves a file in ``params.log_dir``
(so a test can count executions); ``params.fail`` lists numbers whose task always raises;
``params.kill`` numbers whose task kills its own worker process once (guarded by a marker file,
only on a Dask worker); ``params.input_file`` is recorded as an input of every task.
"""
import os
import signal
import uuid
from pathlib import Path

from npuready.experiments.task import Task


def tasks(ctx):
    return [Task(f"n{n}", {"n": n}) for n in ctx.params["numbers"]]


def _on_worker() -> bool:
    try:
        from distributed import get_worker

        get_worker()
    except (ImportError, ValueError):
        return False
    return True


def run_task(ctx, args):
    n = args["n"]
    ctx.seed(f"n{n}", n)
    ctx.timing(f"n{n}_s", 0.001 * n)
    if ctx.params.get("input_file"):
        ctx.input(ctx.params["input_file"])
    (Path(ctx.params["log_dir"]) / f"ran-{n}-{uuid.uuid4().hex}").write_text("")
    if n in ctx.params.get("fail", []):
        raise ValueError(f"task n{n} fails on purpose")
    marker = Path(ctx.params["log_dir"]) / f"killed-{n}"
    if n in ctx.params.get("kill", []) and _on_worker() and not marker.exists():
        marker.write_text("")
        os.kill(os.getpid(), signal.SIGKILL)
    return {"n": n, "square": n * n, "sqrt": n ** 0.5}


def merge(ctx, outputs):
    rows = list(outputs.values())
    return {"squares": {"evidence": "measured", "rows": rows, "total": sum(r["square"] for r in rows)}}
