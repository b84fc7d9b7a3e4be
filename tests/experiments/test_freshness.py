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


def test_a_changed_input_file_is_reported(tmp_path, monkeypatch):
    import json
    import shutil

    from npuready.experiments import freshness
    from npuready.experiments.context import sha256_file
    from npuready.paths import experiments_dir

    shutil.copytree(experiments_dir() / "lint-corpus", tmp_path / "experiments" / "lint-corpus")
    monkeypatch.setenv("NPUREADY_REPO", str(tmp_path))
    data = tmp_path / "zoo" / "m.onnx"
    data.parent.mkdir()
    data.write_bytes(b"one")
    result = tmp_path / "experiments" / "lint-corpus" / "result.json"
    doc = json.loads(result.read_text())
    doc["provenance"]["inputs"] = {"zoo/m.onnx": sha256_file(data)}
    result.write_text(json.dumps(doc))
    assert freshness.stale_experiments(tmp_path / "experiments") == []
    data.write_bytes(b"two")
    assert freshness.stale_experiments(tmp_path / "experiments") == [
        "lint-corpus: input zoo/m.onnx changed since result.json was produced; run 'npuready run lint-corpus'"]
