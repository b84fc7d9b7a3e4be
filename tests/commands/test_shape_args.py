"""--input-shape / --batch on every verb that reads a model; refusals are one line, exit 2."""
import json

import onnx
import pytest

from npuready.cli import main

import shape_patterns as sp

MODEL_VERBS = ("lint", "partition", "cost", "intake", "quantize", "verify", "deploy")


@pytest.fixture
def models(tmp_path):
    paths = {}
    for name, model in (("static", sp.flatten_gemm()), ("dyn", sp.flatten_gemm("batch"))):
        paths[name] = str(tmp_path / f"{name}.onnx")
        onnx.save(model, paths[name])
    return paths


def _json(capsys, argv):
    assert main(argv + ["--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("verb", MODEL_VERBS)
def test_help_explains_both_options_with_an_example(verb, capsys):
    with pytest.raises(SystemExit):
        main([verb, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--input-shape NAME=D0,D1,..." in out and "e.g. --input-shape image=1,3,224,224" in out
    assert "--batch N" in out and "e.g. --batch 1 for a model exported with dynamic_axes" in out


@pytest.mark.parametrize("verb, what", [("cost", "the cost model"), ("partition", "the partition")])
def test_unpinned_dynamic_batch_is_refused_in_one_line(verb, what, models, capsys):
    assert main([verb, models["dyn"]]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"npuready {verb}: error: {models['dyn']}: node 'conv' (Conv) input 'image' dim 0 "
                            f"('batch') is unresolved, so {what} cannot size anything; pin it with --batch 1 or "
                            "--input-shape image=1,4,2,2\n")


def test_cost_with_batch_1_equals_the_static_export(models, capsys):
    static = _json(capsys, ["cost", models["static"]])
    for pins in (["--batch", "1"], ["--input-shape", "image=1,4,2,2"]):
        pinned = _json(capsys, ["cost", models["dyn"], *pins])
        assert pinned["total"]["cycles"] == static["total"]["cycles"] > 0
        assert [la["cycles"] for la in pinned["layers"]] == [la["cycles"] for la in static["layers"]]
    assert pinned["shapes"] == {"shape_ops_folded": 4, "folded_nodes": 7, "unresolved_values": 0,
                                "pinned": "--input-shape image=1,4,2,2"}


def test_partition_with_batch_1_equals_the_static_export(models, capsys):
    static = _json(capsys, ["partition", models["static"]])
    pinned = _json(capsys, ["partition", models["dyn"], "--batch", "1"])
    assert pinned["placements"] == static["placements"]
    assert pinned["verdict"] == static["verdict"] == "one-body"
    assert pinned["shapes"] == {"shape_ops_folded": 4, "folded_nodes": 7, "unresolved_values": 0, "pinned": "--batch 1"}


def test_lint_runs_unpinned_and_pinning_clears_r001a(models, capsys):
    assert main(["lint", models["dyn"], "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert {f["rule"] for f in report["findings"] if f["severity"] == "ERROR"} == {"R001a"}
    pinned = _json(capsys, ["lint", models["dyn"], "--batch", "1"])
    static = _json(capsys, ["lint", models["static"]])
    assert [f["rule"] for f in pinned["findings"]] == [f["rule"] for f in static["findings"]] == ["R004", "R004"]


def test_intake_cost_section_refuses_unpinned_and_uses_pins(models, capsys):
    report = _json(capsys, ["intake", models["dyn"]])
    assert report["diagnosis"]["cost"]["error"].endswith("pin it with --batch 1 or --input-shape image=1,4,2,2")
    pinned = _json(capsys, ["intake", models["dyn"], "--batch", "1"])
    static = _json(capsys, ["intake", models["static"]])
    assert pinned["diagnosis"]["cost"]["cycles"] == static["diagnosis"]["cost"]["cycles"] > 0


@pytest.mark.parametrize("verb", ["cost", "verify", "deploy"])
@pytest.mark.parametrize("pins, message", [
    (["--input-shape", "img=1,4,2,2"], "{m}: --input-shape names input 'img', which the model does not have "
                                      "(its inputs: 'image')"),
    (["--input-shape", "image=1,4,2"], "{m}: --input-shape image=1,4,2 gives 3 dims but input 'image' has rank 4 "
                                      "[batch,4,2,2]; give 4 sizes"),
    (["--input-shape", "image=1,0,2,2"], "--input-shape 'image=1,0,2,2': dim 0 is not positive; every size must "
                                        "be 1 or more"),
    (["--batch", "0"], "--batch 0: must be 1 or more"),
])
def test_bad_pins_exit_2_with_one_line(verb, pins, message, models, capsys):
    extra = {"cost": [], "verify": [models["dyn"]], "deploy": ["--calib", "nowhere"]}[verb]
    assert main([verb, models["dyn"], *extra, *pins]) == 2
    err = capsys.readouterr().err
    assert err == f"npuready {verb}: error: {message.format(m=models['dyn'])}\n"


@pytest.mark.parametrize("verb", ["lint", "partition", "intake", "quantize"])
def test_unknown_input_name_is_refused_before_any_analysis(verb, models, capsys):
    argv = [verb, models["dyn"], "--input-shape", "img=1,4,2,2"] + (["--out", "q.onnx"] if verb == "quantize" else [])
    assert main(argv) == 2
    assert capsys.readouterr().err == (f"npuready {verb}: error: {models['dyn']}: --input-shape names input 'img', "
                                       "which the model does not have (its inputs: 'image')\n")


def test_the_same_input_twice_is_refused(models, capsys):
    assert main(["cost", models["dyn"], "--input-shape", "image=1,4,2,2", "--input-shape", "image=2,4,2,2"]) == 2
    assert capsys.readouterr().err == ("npuready cost: error: --input-shape: input 'image' given more than once; "
                                       "give each input one shape\n")


@pytest.mark.parametrize("verb", ["lint", "partition", "cost"])
def test_text_reports_say_how_many_shape_ops_were_folded(verb, models, capsys):
    main([verb, models["dyn"], "--batch", "1"])
    assert "shapes: 4 shape op(s) folded (7 node(s) known before inference); pinned --batch 1" in \
        " ".join(capsys.readouterr().out.split())
