import json
import shutil
from pathlib import Path

from npuready.cli import main
from npuready.commands.site import check_all
from npuready.paths import docs_dir, experiments_dir, repo_root, site_dir

FIXTURES = Path(__file__).resolve().parents[1] / "site" / "fixtures"


def _tree(tmp_path: Path) -> list[str]:
    shutil.copytree(FIXTURES / "experiments", tmp_path / "experiments")
    shutil.copytree(FIXTURES / "docs", tmp_path / "docs")
    return ["--experiments", str(tmp_path / "experiments"), "--docs", str(tmp_path / "docs"),
            "--out", str(tmp_path / "site")]


def test_committed_site_and_experiments_md_are_fresh():
    assert check_all(experiments_dir(), docs_dir(), site_dir()) == []


def test_build_then_check_then_stale_after_a_result_changes(tmp_path, capsys):
    args = _tree(tmp_path)
    assert main(["site", *args]) == 0
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "docs" / "EXPERIMENTS.md").is_file()
    assert (tmp_path / "site" / "vendor" / "vega@6.4.0.min.js").is_file()
    assert main(["site", "--check", *args]) == 0
    path = tmp_path / "experiments" / "toy-cost" / "result.json"
    doc = json.loads(path.read_text())
    doc["results"]["cost"]["total_cycles"] += 1
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["site", "--check", *args]) == 1
    err = capsys.readouterr().err
    assert "EXPERIMENTS.md: not what the current experiment JSON renders to" in err
    assert "index.html: not what the current experiment JSON renders to" in err


def test_a_rerun_that_stores_the_same_values_leaves_the_site_fresh(tmp_path, capsys):
    args = _tree(tmp_path)
    assert main(["site", *args]) == 0
    path = tmp_path / "experiments" / "toy-cost" / "result.json"
    doc = json.loads(path.read_text())
    doc.setdefault("provenance", {})["git"] = {"commit": "f" * 40}  # rerun at another commit, same values
    path.write_text(json.dumps(doc))
    assert main(["site", "--check", *args]) == 0
    doc["results"]["cost"]["total_cycles"] += 1
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["site", "--check", *args]) == 1
    assert "data/toy-cost.js: not what the current experiment JSON renders to" in capsys.readouterr().err


def test_a_removed_experiment_leaves_no_data_file_behind(tmp_path, capsys):
    args = _tree(tmp_path)
    assert main(["site", *args]) == 0
    assert (tmp_path / "site" / "data" / "toy-cost.js").is_file()
    shutil.rmtree(tmp_path / "experiments" / "toy-cost")
    capsys.readouterr()
    assert main(["site", "--check", *args]) == 1
    assert f"{tmp_path / 'site' / 'data' / 'toy-cost.js'}: not what" in capsys.readouterr().err
    assert main(["site", *args]) == 0
    assert not (tmp_path / "site" / "data" / "toy-cost.js").exists()
    assert main(["site", "--check", *args]) == 0


def test_check_fails_when_a_spec_changed_without_its_result(tmp_path):
    exp = tmp_path / "experiments"
    shutil.copytree(repo_root() / "experiments" / "lint-corpus", exp / "lint-corpus")
    (tmp_path / "docs").mkdir()
    args = ["--experiments", str(exp), "--docs", str(tmp_path / "docs"), "--out", str(tmp_path / "site")]
    assert main(["site", *args]) == 0
    assert check_all(exp, tmp_path / "docs", tmp_path / "site") == []
    spec = exp / "lint-corpus" / "spec.toml"
    spec.write_text(spec.read_text() + "\n# changed\n")
    problems = check_all(exp, tmp_path / "docs", tmp_path / "site")
    assert problems == ["lint-corpus: spec.toml changed since result.json was produced; run 'npuready run lint-corpus'"]


def test_malformed_result_is_one_line_exit_2(tmp_path, capsys):
    args = _tree(tmp_path)
    (tmp_path / "experiments" / "toy-cost" / "result.json").write_text("{broken")
    assert main(["site", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("npuready site: error: ") and "not valid JSON" in err[0]


def test_registering_the_verb_does_not_import_the_renderer():
    import subprocess
    import sys

    code = ("import sys, argparse, npuready.commands.site as s; "
            "s.register(argparse.ArgumentParser().add_subparsers()); "
            "print(sorted(m for m in ('altair', 'pandas', 'jinja2', 'npuready.site.render') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
