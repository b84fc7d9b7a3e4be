"""`npuready diff REV_A REV_B`: tables and JSON from git history; bad revisions exit 2 with one line."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "history"))
from history_repos import probes_repo  # noqa: E402

from npuready.cli import main  # noqa: E402
from npuready.history.figures import KEY_FIGURES  # noqa: E402
from npuready.paths import repo_root  # noqa: E402
from npuready.history.select import select  # noqa: E402


@pytest.fixture
def repo(tmp_path, monkeypatch):
    repo, hashes = probes_repo(tmp_path)
    monkeypatch.setenv("NPUREADY_REPO", str(repo))
    return repo, hashes


def test_text_lists_changed_figures_with_deltas_per_experiment(repo, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    _, hashes = repo
    assert main(["diff", hashes[0], "HEAD"]) == 0
    out = capsys.readouterr().out
    lines = [" ".join(line.replace("│", " ").split()) for line in out.splitlines()]
    assert lines[0] == f"A {hashes[0][:7]} 2026-01-01 probes stored"
    assert lines[1] == f"B {hashes[3][:7]} 2026-01-04 a model report"
    assert "probes 50 52 +2" in lines and "accepted by onnxruntime 50 51 +1" in lines and "failed 0 1 +1" in lines
    assert "all sanity checks pass — yes added" in lines
    assert "stored at B only: mr-x" in lines


def test_json_and_all(repo, capsys):
    _, hashes = repo
    assert main(["diff", hashes[1], hashes[2], "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["a"]["hash"] == hashes[1] and doc["b"]["subject"] == "probes rerun"
    assert [(f["label"], f["a"], f["b"], f["delta"], f["status"]) for f in doc["figures"]] == [
        ("probes", 50, 52, 2, "changed"), ("accepted by onnxruntime", 50, 51, 1, "changed"),
        ("failed", 0, 1, 1, "changed")]
    assert main(["diff", hashes[2], hashes[3], "--json", "--all"]) == 0
    statuses = [f["status"] for f in json.loads(capsys.readouterr().out)["figures"]]
    assert statuses == ["added", "absent", "same", "same", "same"]


@pytest.mark.parametrize("argv,needle", [
    (["diff", "no-such-rev", "HEAD"], "REV_A 'no-such-rev': not a commit in"),
    (["diff", "HEAD", "HEAD~40"], "REV_B 'HEAD~40': not a commit in"),
])
def test_bad_revision_is_exit_2_with_one_line(repo, capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_outside_a_git_repository_is_exit_2_saying_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NPUREADY_REPO", str(tmp_path))
    assert main(["diff", "HEAD~1", "HEAD"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a git work tree" in err


def _git(*args):
    return subprocess.run(["git", "-C", str(repo_root()), *args], capture_output=True, text=True).stdout.strip()


@pytest.mark.skipif(_git("rev-parse", "--is-shallow-repository") != "false",
                    reason="needs this repository's full history")
def test_this_repositorys_own_history_matches_git_show(capsys):
    """The first and the latest commit that stored a result: every figure equals what `git show` reads."""
    commits = _git("log", "--reverse", "--format=%H", "--", "experiments/*/result.json").split()
    assert len(commits) >= 20
    a, b = commits[0], commits[-1]
    assert main(["diff", a, b, "--json", "--all"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(KEY_FIGURES) <= {f["experiment"] for f in doc["figures"]}
    for f in doc["figures"]:
        for side, rev in (("a", a), ("b", b)):
            text = _git("show", f"{rev}:experiments/{f['experiment']}/result.json")
            expected = select(json.loads(text), f["pointer"], None) if text else None
            assert f[side] == expected, (f["experiment"], f["pointer"], side)
