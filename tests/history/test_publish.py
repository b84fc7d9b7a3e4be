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
