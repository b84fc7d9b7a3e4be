from npuready.experiments.run import build_result, spec_for
from npuready.targets import target_names


def test_a_run_hashes_every_target_file_it_loaded():
    doc = build_result(spec_for("probes"), show_progress=False)  # the probes runner reads every target
    inputs = doc["provenance"]["inputs"]
    assert {f"generator/npuready/targets/data/{name}.toml" for name in target_names()} <= set(inputs)
