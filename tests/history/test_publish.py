"""history.json and history-data.js beside the site: the same document, the script a plain assignment."""
import json

from history_repos import probes_repo

from npuready.history.publish import GLOBAL, summary_line, write_history


def test_both_files_hold_the_same_document(tmp_path):
    repo, hashes = probes_repo(tmp_path)
    doc, paths = write_history(tmp_path / "site", repo)
    assert [p.name for p in paths] == ["history.json", "history-data.js"]
    assert json.loads(paths[0].read_text(encoding="utf-8")) == doc
    script = paths[1].read_text(encoding="utf-8")
    prefix = f"window.{GLOBAL} = "
    assert script.startswith(prefix) and script.endswith(";\n")
    assert json.loads(script[len(prefix):-2]) == doc
    assert summary_line(doc) == "history: 3 commits that changed a stored result, 2 experiments"


def test_without_history_the_document_says_why(tmp_path):
    (tmp_path / "plain").mkdir()
    doc, _ = write_history(tmp_path / "site", tmp_path / "plain")
    assert doc["available"] is False
    assert summary_line(doc).startswith("history: unavailable (") and "not a git work tree" in summary_line(doc)


def test_a_skipped_historical_result_is_named_in_the_summary_line(tmp_path):
    """`npuready site --history` says which stored result in git history it could not read (issue 31)."""
    from history_repos import commit, git, result

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "stored", 1, {"experiments/probes/result.json": result("probes", {"n": 1})})
    (repo / "experiments" / "probes" / "result.json").write_text("[" * 20000 + "]" * 20000)
    bad = commit(repo, "deep", 2, {})
    doc, _ = write_history(tmp_path / "site", repo)
    line = summary_line(doc)
    assert line.startswith("history: 2 commits that changed a stored result, 1 experiments; skipped 1 unreadable "
                           f"stored result(s), counted absent (first: probes at {bad[:7]}: nested more than 64 levels")
    assert line.endswith("all under 'skipped' in history.json)") and "\n" not in line
