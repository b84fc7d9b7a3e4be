"""Hostile input on the newer surfaces (issue 31): outputs that are not regular files, configuration and
spec paths, deep JSON/TOML, oversized or special files, shape bombs, registry names.

Each case runs the verb in-process through ``npuready.cli.main`` and asserts the exit code, exactly one
stderr line naming npuready, no traceback, and that nothing outside the case's folder changed. Every file is
small (sparse files for "huge" ones), so the suite is bounded in time and memory like ``test_hostile_inputs``.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from npuready.cli import main
from npuready.paths import zoo_dir

MODEL = zoo_dir() / "tinycnn.onnx"


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        rc = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse usage errors
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


def _one_line_exit_2(rc, err, *words):
    assert rc == 2, err
    assert err.count("\n") == 1 and err.startswith("npuready ") and "Traceback" not in err, err
    for word in words:
        assert word in err, err


def _device(path: Path) -> Path:
    if os.geteuid() != 0:
        pytest.skip("mknod of a character device needs root")
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null twin, never the system's
    return path


# ----- 1. outputs -----------------------------------------------------------------------------------
@pytest.mark.parametrize("verb", ["lint", "cost", "partition", "intake"])
def test_report_output_onto_a_device_node_is_refused_and_the_node_survives(verb, tmp_path, capsys):
    dev = _device(tmp_path / "null")
    rc, _, err = _run([verb, MODEL, "-o", dev], capsys)
    _one_line_exit_2(rc, err, "is a character device, not a regular file")
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


def test_write_baseline_onto_a_device_node_is_refused(tmp_path, capsys):
    dev = _device(tmp_path / "null")
    rc, _, err = _run(["lint", MODEL, "--isolated", "--write-baseline", dev], capsys)
    _one_line_exit_2(rc, err, "character device")
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_report_output_onto_a_fifo_or_folder_is_refused(kind, tmp_path, capsys):
    target = tmp_path / "out"
    os.mkfifo(target) if kind == "fifo" else target.mkdir()
    rc, _, err = _run(["lint", MODEL, "--isolated", "-o", target], capsys)
    _one_line_exit_2(rc, err, "not a regular file")
    assert not target.is_file()


def test_dash_output_is_stdout(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, err = _run(["lint", MODEL, "--isolated", "-o", "-", "--format", "json"], capsys)
    assert rc in (0, 1) and err == "" and out.startswith("{") and list(tmp_path.iterdir()) == []


def test_a_symlinked_output_is_written_through(tmp_path, capsys):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "report.json"
    link.symlink_to(real)
    rc, out, err = _run(["lint", MODEL, "--isolated", "-o", link, "--format", "json"], capsys)
    assert rc in (0, 1) and err == "" and out == ""
    assert link.is_symlink() and real.read_text().startswith("{")
