"""Running tasks on Dask (``dask.distributed``): an in-process local cluster or an existing scheduler.

Optional: the ``sweep`` extra (``pip install 'npuready[sweep]'``). Every task is submitted with
``retries=1``: Dask reruns a task that raised once; a task whose worker dies is rescheduled by the
scheduler on another (or restarted) worker, so finished tasks are never lost.
"""
from __future__ import annotations

import importlib.util
import logging
import os
import uuid
from typing import Callable, Iterable

from npuready.errors import InputError
from npuready.experiments.task import Job, Outcome, error_text
from npuready.experiments.threads import execute_pinned

INSTALL_HINT = "pip install 'npuready[sweep]'"
# What a local cluster's nanny sets in each worker's environment before spawning it. Dask's default also sets
# MALLOC_TRIM_THRESHOLD_=65536, which turns off glibc's adaptive mmap threshold: every large temporary array
# is then mapped and unmapped afresh, and the preprocessing doctor's tasks took twice the CPU time measured
# in one process (0.53 s -> 1.07 s on the same tasks here). One BLAS/OpenMP thread per single-threaded worker.
WORKER_ENV = {"OMP_NUM_THREADS": 1, "MKL_NUM_THREADS": 1, "OPENBLAS_NUM_THREADS": 1}


def dask_available() -> bool:
    """True when dask.distributed imports (the ``sweep`` extra is installed)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def dashboard_available() -> bool:
    return importlib.util.find_spec("bokeh") is not None


def check_scheduler(address: str, timeout_s: float) -> None:
    """Raise InputError (one line) unless a Dask scheduler answers at ``address`` within ``timeout_s``.

    A Dask client alone waits forever on a server that accepts the connection but speaks another protocol
    (a web server, say); here the address is first reached with a plain socket (tcp://), then asked for
    its identity over Dask's own protocol, each bounded by the timeout."""
    import asyncio
    import concurrent.futures
    import socket

    from distributed.comm import connect
    from distributed.comm.addressing import parse_address, parse_host_port

    fix = "start one with 'dask scheduler' and give the address it prints, or drop --scheduler to use a local cluster"
    try:
        scheme, location = parse_address(address)
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as exc:
        raise InputError(f"--scheduler {address}: not a scheduler address ({exc}); give it as "
                         "tcp://HOST:PORT") from None
    if scheme == "tcp":
        try:
            socket.create_connection((host, port), timeout=timeout_s).close()
        except (OSError, OverflowError) as exc:
            reason = (getattr(exc, "strerror", None) or str(exc) or type(exc).__name__).lower()
            raise InputError(f"--scheduler {address}: nothing answers there within {timeout_s:g} s "
                             f"({reason}); {fix}") from None

    async def identity() -> object:
        comm = await connect(address, timeout=timeout_s)
        try:
            await comm.write({"op": "identity"})
            return await comm.read()
        finally:
            comm.abort()

    def ask() -> object:  # in a thread of its own: the caller may already run an event loop (a notebook, a test)
        try:
            return asyncio.run(asyncio.wait_for(identity(), timeout_s))
        except (OSError, asyncio.TimeoutError, ValueError, TypeError):
            return None

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        reply = pool.submit(ask).result()
    if not (isinstance(reply, dict) and reply.get("type") == "Scheduler"):
        raise InputError(f"--scheduler {address}: something listens there but does not answer as a Dask scheduler "
                         f"within {timeout_s:g} s; {fix}")


class DaskBackend:
    """A Dask client: on a local cluster of ``workers`` processes (one thread each; ``None`` = one per
    CPU) or on the scheduler at ``scheduler`` (``tcp://HOST:PORT``)."""

    def __init__(self, workers: int | None = None, scheduler: str | None = None, connect_timeout_s: float = 10.0):
        from distributed import Client, LocalCluster

        self.cluster = None
        if scheduler:
            check_scheduler(scheduler, connect_timeout_s)
            try:
                self.client = Client(scheduler, timeout=f"{connect_timeout_s}s")
            except (OSError, TimeoutError) as exc:
                raise InputError(f"--scheduler {scheduler}: cannot connect ({exc}); start a Dask scheduler there "
                                 "or drop --scheduler to use a local cluster") from None
        else:
            import dask

            n = workers or os.cpu_count() or 1
            with dask.config.set({"distributed.nanny.pre-spawn-environ": dict(WORKER_ENV)}):
                self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                            dashboard_address=":0" if dashboard_available() else None,
                                            silence_logs=logging.ERROR)
            self.client = Client(self.cluster)
        self.scheduler = scheduler

    @property
    def workers(self) -> int:
        return len(self.client.scheduler_info(n_workers=-1)["workers"])

    def dashboard(self) -> str:
        """The line to print about the dashboard."""
        if self.cluster is not None and not dashboard_available():
            return "dask dashboard unavailable (pip install bokeh)"
        link = getattr(self.client, "dashboard_link", None)
        return f"dask dashboard: {link}" if link else "dask dashboard unavailable (pip install bokeh)"

    def run(self, jobs: Iterable[Job], done: Callable[[Job, Outcome], None]) -> None:
        """Submit every job; call ``done`` as each finishes (a task that raised twice: its error)."""
        from distributed import as_completed

        token = uuid.uuid4().hex[:8]
        futures = {self.client.submit(execute_pinned, job, key=f"{job.experiment_id}/{job.task.key}/{token}",
                                      retries=1, pure=False): job for job in jobs}
        for future in as_completed(list(futures)):
            job = futures[future]
            if future.status == "error":
                outcome = Outcome(key=job.task.key, error=error_text(future.exception()))
            else:
                outcome = future.result()
            future.release()
            done(job, outcome)

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
