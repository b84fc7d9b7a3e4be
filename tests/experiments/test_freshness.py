from npuready.experiments.freshness import stale_experiments


def test_committed_results_are_fresh():
    assert stale_experiments() == []


def test_a_changed_spec_is_reported(tmp_path, monkeypatch):
    import shutil

    from npuready.experiments import freshness
    from npuready.paths import experiments_dir

    shutil.copytree(experiments_dir() / "lint-corpus", tmp_path / "lint-corpus")
    spec = tmp_path / "lint-corpus" / "spec.toml"
    spec.write_text(spec.read_text().replace('target = "edge-10"', 'target = "edge-10" # changed'))
    problems = freshness.stale_experiments(tmp_path)
    assert problems == ["lint-corpus: spec.toml changed since result.json was produced; run 'npuready run lint-corpus'"]
    (tmp_path / "lint-corpus" / "result.json").unlink()
    assert freshness.stale_experiments(tmp_path) == ["lint-corpus: no result.json; run 'npuready run lint-corpus'"]
