"""The probe table: enough probes, TSM and Sigmoid present, every allowed activation measured, docs fresh."""
from __future__ import annotations

import json

import pytest

from npuready.lint import lint
from npuready.paths import docs_dir, repo_root
from npuready.probes import BASIS, PROBES, run_all
from npuready.probes.catalog import activation_probe
from npuready.probes.run import table
from npuready.probes.support_doc import from_result, render
from npuready.targets import load_target, target_names


@pytest.fixture(scope="module")
def results():
    return {r.name: r for r in run_all()}


def test_at_least_24_probes_with_unique_names():
    assert len(PROBES) >= 24
    assert all(name == p.name for name, p in PROBES.items())


def test_tsm_and_sigmoid_probes_exist(results):
    tsm = PROBES["TSM_shift_conv"]
    assert tsm.batched and tsm.group == "pattern"
    assert activation_probe("Sigmoid") is not None
    assert results["Sigmoid"].accepted
    n_t = tsm.build().graph.input[0].type.tensor_type.shape.dim[0].dim_value
    assert results["TSM_shift_conv"].output_shapes[0][0] == n_t


def test_tsm_probe_is_static_and_needs_only_the_batch_exemption():
    report = lint(PROBES["TSM_shift_conv"].build(), target="edge-10")
    assert "R001a" not in report.rule_ids() and "R001b" in report.rule_ids()
    exempt = lint(PROBES["TSM_shift_conv"].build(), target="edge-10", allow_batched_input=True)
    assert exempt.errors == ()


@pytest.mark.parametrize("target_name", target_names())
def test_every_allowed_activation_has_a_passing_probe(target_name, results):
    target = load_target(target_name)
    allowed = [op for op, mode in target.activations.items() if mode in ("fused", "lut")]
    missing = [op for op in allowed if activation_probe(op) is None]
    failing = [op for op in allowed if activation_probe(op) is not None and not results[op].accepted]
    assert missing == [] and failing == [], f"{target_name}: unmeasured {missing}, failing {failing}"


def test_every_probe_is_one_op_or_small_pattern(results):
    for name, probe in PROBES.items():
        model = probe.build()
        assert 1 <= len(model.graph.node) <= 12, name
        assert results[name].stage in ("ok", "session", "run")


def test_failed_probe_records_stage_and_error():
    from onnx import helper

    from npuready.lint import examples as ex
    from npuready.probes.probe import Probe
    from npuready.probes.run import run_probe

    bogus = Probe("bogus", "op", ("Frob",), "unknown op", lambda: ex.model(
        [helper.make_node("Frob", ["x"], ["y"], domain="com.acme")], [ex.value("x", [1, 4])], [ex.value("y", [1, 4])],
        extra_opsets=[("com.acme", 1)]))
    result = run_probe(bogus)
    assert (result.accepted, result.stage) == (False, "session")
    assert "Frob" in result.error and "\n" not in result.error


def test_stored_experiment_matches_a_live_run_and_the_docs_page_renders_it(results):
    stored = from_result(repo_root())
    live = table(results.values())
    assert stored["probes"] == live["probes"], "experiments/probes is stale: run `npuready run probes`"
    assert (stored["summary"], stored["basis"]) == (live["summary"], live["basis"])
    committed = (docs_dir() / "support.md").read_text(encoding="utf-8")
    assert committed == render(stored), "docs/support.md is stale: run `npuready docs`"
    assert BASIS in committed.splitlines()[2] and "experiments/probes/result.json" in committed


def test_cli_writes_json_and_docs(tmp_path, capsys):
    from npuready.cli import main

    out, md = tmp_path / "probes.json", tmp_path / "support.md"
    assert main(["probes", "--out", str(out), "--docs", str(md)]) == 0
    assert "npuready probes" in md.read_text().splitlines()[4]
    data = json.loads(out.read_text())
    assert data["basis"] == BASIS and data["evidence"] == "measured"
    assert [p["name"] for p in data["probes"]] == list(PROBES)
    assert data["summary"]["probes"] == len(PROBES)
    assert md.read_text().startswith("# Operator probes - onnxruntime baseline, not NPU support")
