"""`npuready run --check` names the experiments whose runner's source files changed, with the files.

The package is copied into a temporary repository and the fingerprint's package root pointed at the copy,
so a test edits a module the ``probes`` runner imports without touching the real source."""
import hashlib
import json
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "history"))
from history_repos import commit, git  # noqa: E402

from npuready.cli import main  # noqa: E402
from npuready.experiments import fingerprint, provenance  # noqa: E402
from npuready.experiments.schema import SCHEMA_VERSION, validate_result  # noqa: E402
from npuready.experiments.spec import load_spec  # noqa: E402
from npuready.paths import experiments_dir  # noqa: E402

RUNNER = "npuready.experiments.runners.probes"
EDITED = "generator/npuready/probes/run.py"  # imported by the probes runner


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A repository with the package copied in and the real probes spec; fingerprint reads the copy."""
    root = tmp_path / "repo"
    shutil.copytree(fingerprint.ROOT, root / "generator" / "npuready",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.o", "build"))
    (root / "experiments" / "probes").mkdir(parents=True)
    shutil.copyfile(experiments_dir() / "probes" / "spec.toml", root / "experiments" / "probes" / "spec.toml")
    monkeypatch.setattr(fingerprint, "ROOT", root / "generator" / "npuready")
    monkeypatch.setenv("NPUREADY_REPO", str(root))
    return root


def _store(root: Path, code: dict | None, commit_hash: str | None) -> None:
    spec = load_spec(root / "experiments" / "probes" / "spec.toml")
    prov = {"git": {"commit": commit_hash}, "packages": {}, "tools": {}, "inputs": {}, "machine": {}, "seeds": {}}
    if code is not None:
        prov["code"] = code
    doc = {"schema_version": SCHEMA_VERSION, "id": "probes", "title": spec.title, "summary": spec.summary,
           "view": spec.view, "spec": spec.to_dict(), "spec_sha256": spec.sha256, "provenance": prov,
           "results": {"probes": {"evidence": "measured"}}, "timing": {"evidence": "measured"}}
    validate_result(doc)
    (root / "experiments" / "probes" / "result.json").write_text(json.dumps(doc), encoding="utf-8")


def _edit(root: Path) -> None:
    path = root / EDITED
    path.write_text(path.read_text(encoding="utf-8") + "\n# a temporary edit\n", encoding="utf-8")


def test_recorded_hashes_cover_the_runners_imports_and_match_the_schema(repo):
    code = provenance.code(RUNNER)
    assert code["runner"] == RUNNER
    assert EDITED in code["files"] and "generator/npuready/experiments/runners/probes.py" in code["files"]
    assert "generator/npuready/experiments/runners/ptq_methods.py" not in code["files"]
    assert code["files"][EDITED] == hashlib.sha256((repo / EDITED).read_bytes()).hexdigest()


def test_unchanged_is_fresh_and_an_edit_to_an_imported_module_names_experiment_and_file(repo, capsys):
    _store(repo, provenance.code(RUNNER), "0" * 40)
    assert main(["run", "--check"]) == 0
    assert capsys.readouterr().out == "all 1 experiment results are fresh\n"
    _edit(repo)
    assert main(["run", "--check"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == ["probes: 1 source file(s) its runner imports changed since result.json was produced (compared with "
                   "the hashes recorded in result.json): probes/run.py (changed); run 'npuready run probes'"]


def test_without_recorded_hashes_the_recorded_commits_tree_is_the_baseline(repo, capsys):
    git(repo, "init", "-q", "-b", "main")
    first = commit(repo, "package and spec", 1, {})
    _store(repo, None, first)
    assert main(["run", "--check"]) == 0
    capsys.readouterr()
    _edit(repo)
    commit(repo, "edit the probe runner's module", 2, {})
    assert main(["run", "--check"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"probes: 1 source file(s) its runner imports changed since result.json was produced (compared with "
                   f"the files at its recorded commit {first[:7]}, read from git): probes/run.py (changed); "
                   f"run 'npuready run probes'"]


def test_a_new_import_and_verbose_lists_every_file(repo, capsys):
    _store(repo, provenance.code(RUNNER), None)
    runner = repo / "generator/npuready/experiments/runners/probes.py"
    runner.write_text(runner.read_text(encoding="utf-8") + "\nimport npuready.history.figures\n", encoding="utf-8")
    assert main(["run", "--check", "--verbose"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert ("experiments/runners/probes.py (changed), history/__init__.py (new import), "
            "history/figures.py (new import); run") in line


def test_no_hashes_and_no_history_cannot_be_checked_and_says_so(repo, capsys):
    _store(repo, None, "f" * 40)  # the repository copy is not a git work tree
    assert main(["run", "--check"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("probes: cannot tell whether the code that produced result.json changed (")
    assert line.endswith("run 'npuready run probes' to record its source files")


def _git_out(*args):
    import subprocess

    from npuready.paths import repo_root

    return subprocess.run(["git", "-C", str(repo_root()), *args], capture_output=True, text=True).stdout


@pytest.mark.skipif(_git_out("rev-parse", "--is-shallow-repository").strip() != "false",
                    reason="needs this repository's full history")
def test_reconstructed_baselines_of_the_committed_results_agree_with_git_diff():
    """Every committed result without recorded hashes (the library-built YOLOv8n report included): a file its
    runner imports then and now counts as changed exactly when `git diff COMMIT` lists it."""
    from npuready.experiments.code_freshness import _CommitTrees, baseline
    from npuready.experiments.registry import runner_module
    from npuready.experiments.run import declared_ids, spec_for
    from npuready.paths import repo_root

    trees = _CommitTrees(repo_root())
    checked = []
    for exp_id in declared_ids():
        path = experiments_dir() / exp_id / "result.json"
        if not path.is_file():
            continue
        doc = json.loads(path.read_text(encoding="utf-8"))
        if "code" in doc["provenance"]:
            continue
        runner = runner_module(exp_id, spec_for(exp_id).kind)
        then, basis = baseline(doc, runner, trees)
        now = fingerprint.file_hashes(runner)
        commit = doc["provenance"]["git"]["commit"]
        differing = set(_git_out("diff", "--name-only", commit, "--", fingerprint.PACKAGE_PREFIX).split())
        both = set(then) & set(now)
        assert {p for p in both if then[p] != now[p]} == both & differing, exp_id
        assert f"generator/npuready/experiments/runners/{runner.rsplit('.', 1)[-1]}.py" in then, exp_id
        checked.append(exp_id)
    assert "model-report-yolov8n" in checked or "code" in json.loads(
        (experiments_dir() / "model-report-yolov8n" / "result.json").read_text(encoding="utf-8"))["provenance"]
