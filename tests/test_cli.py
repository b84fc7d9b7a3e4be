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
