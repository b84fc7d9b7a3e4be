"""Experiments as task graphs: serial, local Dask cluster and remote scheduler give the same result.json
apart from its timing block; failing tasks, a killed worker, --resume, and the path without Dask."""
import os
import sys
from pathlib import Path

import pytest

from npuready.errors import InputError
from npuready.experiments.identity import same_answers, without_timing
from npuready.experiments.registry import RUNNERS
from npuready.experiments.run import build_result, spec_for
from npuready.experiments.spec import load_spec
from npuready.experiments.sweep import Sweep, SweepOptions

distributed = pytest.importorskip("distributed")

HERE = Path(__file__).resolve().parent
GENERATOR = Path(__file__).resolve().parents[2] / "generator"


def _worker_path() -> str:
    return os.pathsep.join([str(HERE), str(GENERATOR), os.environ.get("PYTHONPATH", "")])


@pytest.fixture(scope="module")
def scheduler():
    """A separate 2-worker cluster reached by address, as `--scheduler tcp://...` would."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", _worker_path())
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=50)
        try:
            yield cluster.scheduler_address
        finally:
            cluster.close()


@pytest.fixture
def demo(tmp_path, monkeypatch):
    """Write a demo spec; return a function building its result with given sweep options."""
    monkeypatch.setenv("PYTHONPATH", _worker_path())
    monkeypatch.setitem(RUNNERS, "demo-sweep", "sweep_demo_runner")
    log = tmp_path / "log"
    log.mkdir()

    def make(numbers=(1, 2, 3, 4), fail=(), kill=(), input_file=None):
        d = tmp_path / "demo-sweep"
        d.mkdir(exist_ok=True)
        extra = f'input_file = "{input_file}"\n' if input_file else ""
        (d / "spec.toml").write_text(
            'id = "demo-sweep"\ntitle = "Demo"\nsummary = "Squares."\nview = "records"\n[params]\n'
            f'numbers = {list(numbers)}\nfail = {list(fail)}\nkill = {list(kill)}\nlog_dir = "{log}"\n{extra}')
        return load_spec(d / "spec.toml")

    def run(spec, **options):
        with Sweep(SweepOptions(show_progress=False, **options)) as sweep:
            return build_result(spec, show_progress=False, sweep=sweep)

    def executions(n):
        return len(list(log.glob(f"ran-{n}-*")))

    return make, run, executions, log


def test_serial_local_cluster_and_scheduler_are_byte_identical(demo, scheduler):
    make, run, _, _ = demo
    spec = make()
    serial = run(spec, workers=0)
    local = run(spec, workers=2)
    remote = run(spec, scheduler=scheduler)
    assert [d["timing"]["execution"]["mode"] for d in (serial, local, remote)] == ["serial", "dask-local",
                                                                                   "dask-scheduler"]
    assert same_answers(serial, local) and same_answers(serial, remote)
    assert serial["results"]["squares"]["rows"][1] == {"n": 2, "square": 4, "sqrt": 2 ** 0.5}
    assert serial["provenance"]["seeds"] == {"n1": 1, "n2": 2, "n3": 3, "n4": 4}


def test_a_real_experiment_is_identical_serially_and_on_a_cluster(scheduler):
    spec = spec_for("cost-per-target")
    serial = build_result(spec, show_progress=False)
    with Sweep(SweepOptions(scheduler=scheduler, show_progress=False)) as sweep:
        remote = build_result(spec, show_progress=False, sweep=sweep)
    assert remote["timing"]["execution"]["tasks"] == len(serial["results"]["costs"]["rows"]) > 1
    assert same_answers(serial, remote)


@pytest.mark.parametrize("where", ["serial", "cluster"])
def test_a_failing_task_is_retried_once_then_recorded_and_the_others_kept(demo, scheduler, where):
    make, run, executions, _ = demo
    doc = run(make(numbers=(1, 2, 3), fail=(2,)), **({"workers": 0} if where == "serial" else {"scheduler": scheduler}))
    assert doc["failed_tasks"] == [{"task": "n2", "error": "ValueError: task n2 fails on purpose", "attempts": 2}]
    assert [r["n"] for r in doc["results"]["squares"]["rows"]] == [1, 3]
    assert doc["results"]["squares"]["total"] == 10
    assert (executions(1), executions(2), executions(3)) == (1, 2, 1)


def test_a_killed_worker_loses_no_task(demo, scheduler):
    make, run, _, log = demo
    spec = make(numbers=(1, 2, 3, 4), kill=(3,))
    doc = run(spec, scheduler=scheduler)
    assert (log / "killed-3").exists()  # the worker running n3 did die once
    assert "failed_tasks" not in doc
    assert [r["n"] for r in doc["results"]["squares"]["rows"]] == [1, 2, 3, 4]
    assert same_answers(doc, run(spec, workers=0))


def test_resume_reuses_finished_tasks_until_an_input_changes(demo, tmp_path):
    make, run, executions, _ = demo
    data = tmp_path / "input.txt"
    data.write_text("one")
    spec = make(numbers=(1, 2, 3), input_file=data)
    first = run(spec, workers=0)
    again = run(spec, workers=0, resume=True)
    assert [executions(n) for n in (1, 2, 3)] == [1, 1, 1]
    assert again["timing"]["execution"] == {"mode": "cache", "tasks": 3, "from_cache": 3}
    assert same_answers(first, again)
    data.write_text("two")  # a recorded input changed: the cached tasks are stale
    run(spec, workers=0, resume=True)
    assert [executions(n) for n in (1, 2, 3)] == [2, 2, 2]


def test_resume_after_a_partial_run_runs_only_the_missing_tasks(demo):
    make, run, executions, _ = demo
    run(make(numbers=(1, 2, 3), fail=(3,)), workers=0)
    doc = run(make(numbers=(1, 2, 3)), workers=0, resume=True)  # n3 fixed (the spec changed: new key for all)
    assert executions(1) == 2  # params are part of the key: a changed spec reruns everything
    doc2 = run(make(numbers=(1, 2, 3)), workers=0, resume=True)
    assert [executions(n) for n in (1, 2, 3)] == [2, 2, 3]
    assert doc2["timing"]["execution"]["from_cache"] == 3 and same_answers(doc, doc2)


def test_without_dask_tasks_run_serially_and_the_note_says_how_to_enable_workers(demo, monkeypatch):
    make, _, _, _ = demo
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    notes = []
    with Sweep(SweepOptions(workers=2, show_progress=False), note=notes.append) as sweep:
        doc = build_result(make(), show_progress=False, sweep=sweep)
    assert doc["timing"]["execution"]["mode"] == "serial"
    assert notes == ["dask.distributed is not installed: running tasks serially; "
                     "enable workers with pip install 'npuready[sweep]'"]
    with Sweep(SweepOptions(scheduler="tcp://127.0.0.1:1", show_progress=False)) as sweep:
        with pytest.raises(InputError,
                           match=r"needs dask.distributed; install it with pip install 'npuready\[sweep\]'"):
            build_result(make(), show_progress=False, sweep=sweep)


def test_one_task_runs_inline_without_a_cluster(demo):
    make, run, _, _ = demo
    doc = run(make(numbers=(5,)), workers=2)
    assert doc["timing"]["execution"] == {"mode": "inline", "tasks": 1, "from_cache": 0}


def test_timing_fields_are_the_only_thing_ignored():
    doc = {"id": "x", "results": {"a": {"evidence": "measured", "v": 1}}, "timing": {"total_s": 1.0}}
    slower = {**doc, "timing": {"total_s": 9.0, "execution": {"mode": "dask-local"}}}
    other = {**doc, "results": {"a": {"evidence": "measured", "v": 2}}}
    assert without_timing(slower) == {"id": "x", "results": {"a": {"evidence": "measured", "v": 1}}}
    assert same_answers(doc, slower) and not same_answers(doc, other)
    assert not same_answers(doc, {**doc, "failed_tasks": [{"task": "t", "error": "E: x", "attempts": 2}]})


def test_an_experiment_without_tasks_merges_nothing(demo):
    make, run, _, _ = demo
    doc = run(make(numbers=()), workers=0)
    assert doc["results"]["squares"] == {"evidence": "measured", "rows": [], "total": 0}
    assert doc["timing"]["execution"]["tasks"] == 0 and "failed_tasks" not in doc


@pytest.fixture
def web_server():
    """Something that accepts TCP connections but speaks HTTP, not Dask's protocol."""
    import http.server
    import threading

    class Quiet(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):  # keep the server's log out of the captured stderr
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


FIX = "start one with 'dask scheduler' and give the address it prints, or drop --scheduler to use a local cluster"


def test_an_unreachable_scheduler_is_exit_2_with_one_line(capsys):
    from npuready.cli import main

    address = f"tcp://127.0.0.1:{_free_port()}"
    assert main(["run", "probes", "--scheduler", address, "--connect-timeout", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"npuready run: error: --scheduler {address}: nothing answers there within 1 s "
                            f"(connection refused); {FIX}\n")


def test_a_server_that_is_not_a_dask_scheduler_is_exit_2_with_one_line(capsys, web_server):
    from npuready.cli import main

    assert main(["run", "probes", "--scheduler", web_server, "--connect-timeout", "1"]) == 2
    assert capsys.readouterr().err == (f"npuready run: error: --scheduler {web_server}: something listens there but "
                                       f"does not answer as a Dask scheduler within 1 s; {FIX}\n")


def test_a_scheduler_address_without_a_port_is_refused(capsys):
    from npuready.cli import main

    assert main(["run", "probes", "--scheduler", "tcp://127.0.0.1", "--connect-timeout", "1"]) == 2
    assert capsys.readouterr().err.startswith("npuready run: error: --scheduler tcp://127.0.0.1: not a scheduler "
                                              "address (")


def test_a_running_scheduler_passes_the_check(scheduler):
    from npuready.experiments.dask_backend import check_scheduler

    assert check_scheduler(scheduler, 5.0) is None


def test_the_check_works_inside_a_running_event_loop(scheduler, web_server):
    """Dask's client may be created where an event loop already runs (a notebook, Playwright's sync API)."""
    import asyncio

    from npuready.experiments.dask_backend import check_scheduler

    async def main():
        check_scheduler(scheduler, 5.0)
        with pytest.raises(InputError, match="does not answer as a Dask scheduler within 1 s"):
            check_scheduler(web_server, 1.0)

    # asyncio.run in a thread of its own: earlier tests in the same process (Playwright's sync API) may leave an
    # event loop marked running in the main thread, and asyncio.run refuses to start there.
    import threading

    failures: list[BaseException] = []

    def in_thread() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # handed back to the test thread
            failures.append(exc)

    worker = threading.Thread(target=in_thread)
    worker.start()
    worker.join()
    if failures:
        raise failures[0]
