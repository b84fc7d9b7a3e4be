"""`report --out` writes its file set as one: byte-identical across runs, staged then moved into place, refused
onto a folder holding other files, and a failed write names the file and leaves --out as it was."""
import json
import os
import resource
import signal
import subprocess
import sys

from npuready.cli import main
from npuready.paths import zoo_dir

MODEL = zoo_dir() / "tinycnn.onnx"
ARGS = ["-t", "edge-10", "--stages", "lint,partition,cost"]


def _report(model, out, *extra) -> int:
    return main(["report", str(model), *ARGS, *extra, "--out", str(out)])


def test_two_runs_on_one_model_write_byte_identical_json_and_page(tmp_path, capsys):
    for name in ("a", "b"):  # the model copied into two folders: nothing of either path may show
        folder = tmp_path / f"copy-{name}"
        folder.mkdir()
        (folder / "tinycnn.onnx").write_bytes(MODEL.read_bytes())
        assert _report(folder / "tinycnn.onnx", tmp_path / f"out-{name}") == 0
    a, b = tmp_path / "out-a", tmp_path / "out-b"
    for file in ("result.json", "report.html"):
        assert (a / file).read_bytes() == (b / file).read_bytes(), file
        assert str(tmp_path) not in (a / file).read_text() and "copy-a" not in (a / file).read_text()
    timing = json.loads((a / "timing.json").read_text())
    assert timing["evidence"] == "measured" and timing["total_s"] >= 0
    assert "timing" not in json.loads((a / "result.json").read_text())


def test_an_earlier_report_is_replaced_whole(tmp_path, capsys):
    out = tmp_path / "r"
    assert _report(MODEL, out, "--no-inline") == 0
    assert (out / "assets").is_dir()
    assert _report(MODEL, out) == 0  # inline now: the assets of the earlier set are gone with it
    assert sorted(p.name for p in out.iterdir()) == ["report.html", "result.json", "timing.json"]
    assert [p.name for p in tmp_path.iterdir()] == ["r"]  # no staging folder left beside it


def test_a_folder_holding_other_files_is_refused_before_the_work(tmp_path, capsys):
    out = tmp_path / "r"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert _report(MODEL, out) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "holds 1 file(s) that are not an earlier report's (first: 'notes.txt')" \
        in captured.err and captured.out == ""
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_a_symlinked_out_folder_is_written_through(tmp_path, capsys):
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert _report(MODEL, link) == 0
    assert link.is_symlink() and (real / "report.html").is_file()


def _limited(limit: int):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG, like a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_failed_write_names_the_file_and_leaves_out_as_it_was(tmp_path):
    out = tmp_path / "r"
    assert _report(MODEL, out) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p.endswith("generator"))}
    for given in (out, tmp_path / "fresh"):
        proc = subprocess.run([sys.executable, "-m", "npuready.cli", "report", str(MODEL), *ARGS, "--out", str(given)],
                              capture_output=True, text=True, timeout=300, env=env, preexec_fn=_limited(64 * 1024))
        assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr, proc.stderr
        # the one stderr line: no progress line before it (stderr is not a terminal here)
        assert proc.stderr == f"npuready report: error: {given / 'report.html'}: cannot write: File too large; " \
                              f"nothing was written to {given}\n"
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]  # no half set, no staging folder


def test_out_dot_from_an_empty_folder_writes_the_set_there(tmp_path, capsys, monkeypatch):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert _report(MODEL, ".") == 0
    monkeypatch.chdir(tmp_path)  # the folder was replaced by the staged one: enter it again by name
    assert sorted(p.name for p in here.iterdir()) == ["report.html", "result.json", "timing.json"]
    assert [p.name for p in tmp_path.iterdir()] == ["here"]


def test_progress_lines_go_to_a_terminal_only_and_notes_follow_the_write(tmp_path, capsys, monkeypatch):
    """Off a terminal the run prints no 'report: MODEL on TARGET' line; on one it does, before the notes."""
    import io

    assert _report(MODEL, tmp_path / "a") == 0
    assert "on edge-10" not in capsys.readouterr().err

    class Tty(io.StringIO):
        def isatty(self):
            return True
    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    assert _report(MODEL, tmp_path / "b") == 0
    assert tty.getvalue().splitlines() == ["report: tinycnn.onnx on edge-10"]
