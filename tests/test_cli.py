import subprocess
import sys

import pytest

from npuready.cli import COMMANDS, main


@pytest.mark.parametrize("verb", sorted(COMMANDS))
def test_every_verb_has_helpful_help(verb, capsys):
    with pytest.raises(SystemExit) as exc:
        main([verb, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: npuready {verb}") and len(out.splitlines()) > 3


def test_unknown_verb_is_a_usage_error():
    proc = subprocess.run([sys.executable, "-m", "npuready.cli", "frobnicate"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "invalid choice" in proc.stderr


def test_no_verb_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "VERB" in capsys.readouterr().out


def test_targets_lists_one_name_per_line(capsys):
    from npuready.targets import target_names

    assert main(["targets"]) == 0
    assert capsys.readouterr().out.splitlines() == target_names()


def test_run_unknown_experiment_exits_2(capsys):
    assert main(["run", "no-such-experiment"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown experiment 'no-such-experiment'" in err


@pytest.mark.parametrize("argv", [
    ["cost", "zoo/tinycnn.onnx", "--output", "/proc/npuready-cannot-write/report.txt"],
    ["partition", "zoo/tinycnn.onnx", "--output", "/proc/npuready-cannot-write/report.txt"],
])
def test_an_unwritable_output_is_one_line_and_exit_2(argv, capsys, monkeypatch):
    from npuready.paths import repo_root

    monkeypatch.chdir(repo_root())
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write the report" in err and "Traceback" not in err


HEAVY = ("onnx", "numpy", "onnxruntime", "torch", "rich", "jinja2", "pandas")
_HELP_DRIVER = """
import contextlib, io, sys
from npuready.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(' '.join(m for m in {heavy!r} if m in sys.modules))
"""


@pytest.mark.parametrize("verb", ["", *sorted(COMMANDS)])
def test_help_imports_nothing_heavy(verb):
    argv = [verb, "--help"] if verb else ["--help"]
    proc = subprocess.run([sys.executable, "-c", _HELP_DRIVER.format(heavy=HEAVY), *argv],
                          capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == ""


def _crash(args):
    raise ZeroDivisionError("float division by zero\nsecond line \x1b[31m")


def test_an_unexpected_exception_is_one_line_and_exit_1(monkeypatch, capsys):
    import npuready.commands.targets as verb

    monkeypatch.setattr(verb, "run", _crash)
    assert main(["targets"]) == 1
    captured = capsys.readouterr()
    assert captured.err == ("npuready targets: internal error: ZeroDivisionError: float division by zero second "
                            "line \\x1b[31m (rerun with --debug for the traceback)\n")


@pytest.mark.parametrize("argv", [["--debug", "targets"], ["targets", "--debug"]])
def test_debug_reraises_with_the_traceback(monkeypatch, argv):
    import npuready.commands.targets as verb

    monkeypatch.setattr(verb, "run", _crash)
    with pytest.raises(ZeroDivisionError):
        main(argv)


def test_debug_is_accepted_after_a_nested_action(monkeypatch):
    import npuready.commands.preprocess as verb

    monkeypatch.setattr(verb, "run_show", _crash)
    with pytest.raises(ZeroDivisionError):
        main(["preprocess", "show", "--debug"])


def test_an_unexpected_exception_in_a_real_process_has_no_traceback(tmp_path):
    driver = ("import sys, npuready.commands.targets as v\n"
              "v.run = lambda args: {}['missing']\n"
              "from npuready.cli import main\nsys.exit(main(sys.argv[1:]))\n")
    proc = subprocess.run([sys.executable, "-c", driver, "targets"], capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr == ("npuready targets: internal error: KeyError: 'missing' "
                           "(rerun with --debug for the traceback)\n")
    debug = subprocess.run([sys.executable, "-c", driver, "targets", "--debug"], capture_output=True, text=True)
    assert debug.returncode == 1 and "Traceback" in debug.stderr and "KeyError: 'missing'" in debug.stderr
