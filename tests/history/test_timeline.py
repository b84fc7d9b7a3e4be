"""The history document read from a small repository's git history (exact states per commit)."""
import subprocess

from history_repos import git, probes_repo

from npuready.history.timeline import build_history


def test_commits_that_changed_results_oldest_first_with_each_experiments_state_per_commit(tmp_path):
    repo, hashes = probes_repo(tmp_path)
    doc = build_history(repo)
    assert doc["available"] is True and doc["reason"] is None
    assert [c["hash"] for c in doc["commits"]] == [hashes[0], hashes[2], hashes[3]]  # the readme commit is not one
    assert doc["commits"][0] == {"hash": hashes[0], "short": hashes[0][:7], "date": "2026-01-01T12:00:00+00:00",
                                 "subject": "probes stored"}
    probes = doc["experiments"]["probes"]
    assert [f["label"] for f in probes["figures"]] == ["probes", "accepted by onnxruntime", "failed"]
    assert probes["states"] == [[50, 50, 0], [52, 51, 1]]
    assert probes["at"] == [0, 1, 1] and probes["changed"] == [0, 1]
    report = doc["experiments"]["mr-x"]  # not in the registry: figures by its spec's kind
    assert [f["pointer"] for f in report["figures"]] == ["/results/checks/all_ok", "/results/graph/node_count"]
    assert report["states"] == [[True, None]] and report["at"] == [None, None, 0] and report["changed"] == [2]


def test_a_folder_without_git_and_a_shallow_clone_say_why_instead_of_failing(tmp_path):
    plain = tmp_path / "archive"
    plain.mkdir()
    doc = build_history(plain)
    assert doc["available"] is False and doc["commits"] == [] and doc["experiments"] == {}
    assert "not a git work tree" in doc["reason"] or "no git history" in doc["reason"]
    repo, _ = probes_repo(tmp_path)
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow)], check=True)
    assert git(shallow, "rev-parse", "--is-shallow-repository") == "true"
    doc = build_history(shallow)
    assert doc["available"] is False and "shallow clone" in doc["reason"] and "fetch-depth: 0" in doc["reason"]


def test_a_deeply_nested_or_broken_historical_result_is_skipped_with_a_note(tmp_path):
    """One bad result.json in history (RecursionError in json) must not break the document, even after a
    later commit restored the file."""
    from history_repos import commit, git, result

    from npuready.history.compare import diff_revisions
    from npuready.history.render import render_text
    from npuready.history.timeline import build_history

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    p = repo / "experiments" / "probes" / "result.json"
    good = commit(repo, "stored", 1, {"experiments/probes/result.json": result("probes", {"n": 1})})
    p.write_text("[" * 20000 + "]" * 20000)
    bad = commit(repo, "deep", 2, {})
    p.write_bytes(b"\xff{")
    commit(repo, "not utf-8", 3, {})
    restored = commit(repo, "restored", 4, {"experiments/probes/result.json": result("probes", {"n": 2})})
    doc = build_history(repo)
    assert doc["available"] is True and len(doc["commits"]) == 4
    assert [(s["commit"], s["reason"][:30]) for s in doc["skipped"]] == [
        (bad[:7], "nested more than 64 levels dee"), (doc["commits"][2]["short"], "not valid JSON ('utf-8' codec ")]
    assert doc["experiments"]["probes"]["at"][3] is not None
    diff = diff_revisions(repo, bad, restored)
    assert diff.skipped == ("probes at A: nested more than 64 levels deep (arrays/tables inside each other); "
                            "refusing to parse it",)
    assert diff.to_json()["skipped"] == list(diff.skipped)
    assert "skipped (unreadable, counted absent): probes at A: nested more than 64" in render_text(diff, columns=200)
    assert build_history(repo, good)["experiments"]["probes"]["at"] == [0]
    assert "skipped" not in build_history(repo, good)
