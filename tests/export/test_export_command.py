"""`npuready export`: the written artifact, its checks, and what it refuses (exit 0 / 1 / 2)."""
from __future__ import annotations

import csv
import hashlib
import json

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from npuready.cli import main

pytest.importorskip("ai_edge_litert")


@pytest.fixture(scope="module")
def calib(tmp_path_factory):
    """Real Fashion-MNIST test images as PNG, one sub-folder per class."""
    from PIL import Image

    from npuready.paths import data_dir

    d = np.load(data_dir() / "fashion_mnist_subset.npz")
    root = tmp_path_factory.mktemp("fm")
    for i, (im, label) in enumerate(zip(d["test_images"][:40], d["test_labels"][:40])):
        (root / str(int(label))).mkdir(exist_ok=True)
        Image.fromarray(np.asarray(im).reshape(28, 28).astype(np.uint8)).save(root / str(int(label)) / f"{i:03d}.png")
    return root


def _export(calib, out, *extra, target="ethos-u55-128", model="resnet20"):
    return main(["export", model, "--target", target, "--calib", str(calib), "--out", str(out),
                 "--calib-images", "24", "--check-images", "6", *extra])


@pytest.fixture(scope="module")
def exported(calib, tmp_path_factory):
    out = tmp_path_factory.mktemp("exports") / "resnet20-u55"
    assert _export(calib, out, "--format", "json") == 0
    return out


def test_writes_the_checked_tflite_the_vela_build_and_a_manifest_with_hashes(exported):
    m = json.loads((exported / "manifest.json").read_text())
    assert m["kind"] == "npuready-export" and m["target"] == "ethos-u55-128"
    assert sorted(m["files"]) == ["model_int8.tflite", "model_int8_vela.tflite", "model_qdq.onnx",
                                  "vela_per-layer.csv", "vela_summary.csv"]
    assert sorted(p.name for p in exported.iterdir()) == sorted([*m["files"], "manifest.json"])
    for name, entry in m["files"].items():
        data = (exported / name).read_bytes()
        assert entry == {**entry, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    assert m["check"]["evidence"] == "measured" and m["check"]["inputs"] == 6
    assert m["check"]["tensors_compared"] > 0 and m["check"]["tensors_mismatched"] == 0
    assert m["cost"]["evidence"] == "simulated"
    v = m["vela"]
    with open(exported / "vela_summary.csv", newline="") as f:
        summary = next(csv.DictReader(f))
    assert v["reference_cycles"] == int(float(summary["cycles_total"]))
    assert v["ours_cycles"] == sum(x["ours_cycles"] for x in v["layers"]) + v["ours_unmatched_cycles"]
    assert 0.8 <= v["ratio"] <= 1.25  # the mirror against Vela's estimate on the file it compiled


def test_the_tflite_runs_on_litert_with_the_manifest_input_quantisation(exported):
    from ai_edge_litert.interpreter import Interpreter

    m = json.loads((exported / "manifest.json").read_text())
    interp = Interpreter(model_path=str(exported / "model_int8.tflite"))
    interp.allocate_tensors()
    detail = interp.get_input_details()[0]
    assert detail["dtype"] == np.int8
    scale, zero = detail["quantization"]
    assert scale == pytest.approx(m["input"]["scale"], rel=1e-6) and zero == m["input"]["zero_point"]


def test_an_earlier_export_is_replaced_whole_and_nothing_is_left_beside_it(calib, exported, tmp_path):
    out = tmp_path / "again"
    assert _export(calib, out, "--no-compile") == 0
    assert not (out / "model_int8_vela.tflite").exists()
    assert _export(calib, out) == 0
    assert (out / "model_int8_vela.tflite").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again"]  # no staging or old folder left


def test_a_folder_holding_other_files_is_refused_before_any_work(calib, tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    assert _export(calib, out) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not an earlier export" in err[0]
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


def test_a_target_without_vela_writes_no_vela_files(calib, tmp_path):
    assert _export(calib, tmp_path / "edge", target="edge-10") == 0
    m = json.loads((tmp_path / "edge" / "manifest.json").read_text())
    assert m["vela"] is None and "model_int8_vela.tflite" not in m["files"]


def test_an_op_without_an_integer_kernel_refuses_and_writes_nothing(calib, tmp_path, capsys):
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((4, 1, 3, 3)).astype(np.float32), "w")
    nodes = [helper.make_node("Conv", ["input", "w"], ["c"], name="conv", kernel_shape=[3, 3]),
             helper.make_node("Erf", ["c"], ["y"], name="erf")]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 1, 28, 28])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 26, 26])], [w])
    path = tmp_path / "erf.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    assert _export(calib, tmp_path / "out", "--preprocess", "zoo:resnet20", model=str(path), target="edge-10") == 1
    err = capsys.readouterr().err
    assert "npuready export: refused at engine: integer engine:" in err and "Erf" in err
    assert not (tmp_path / "out").exists()


def test_qnn_records_where_htp_ran_the_qdq_model_and_its_agreement(calib, tmp_path):
    from npuready.vendor import qnn_htp

    if not qnn_htp.available():
        pytest.skip("run `make qnn-env` for Qualcomm's HTP backend")
    assert _export(calib, tmp_path / "q", "--qnn", "--no-compile") == 0
    q = json.loads((tmp_path / "q" / "manifest.json").read_text())["qnn_htp"]
    assert q["refused"] == [] and q["qnn_partitions"] == 1 and q["inputs"] == 6
    assert q["qdq_model"] == "model_qdq.onnx" and q["layernorm"] == "none in the model"
    assert {n["op_type"] for n in q["cpu_nodes"]} == {"QuantizeLinear", "DequantizeLinear"}
    assert 0.0 <= q["top1_agreement_htp_vs_cpu"] <= 1.0


def test_rknn_writes_the_rknn_file_with_its_layer_placement(calib, tmp_path):
    from npuready.vendor import rknn_toolkit

    if not rknn_toolkit.available():
        pytest.skip("run `make rknn-env` for RKNN-Toolkit2")
    assert _export(calib, tmp_path / "r", "--rknn", "rk3588", "--no-compile") == 0
    m = json.loads((tmp_path / "r" / "manifest.json").read_text())
    r = m["rknn"]
    assert "model_rk3588.rknn" in m["files"] and m["files"]["model_rk3588.rknn"]["what"].startswith("compiled")
    assert r["platform"] == "rk3588" and r["layers"] == len(r["layer_table"]) and r["inputs"] == 6
    assert r["total_cycles"] == sum(x["total_cycles"] for x in r["layer_table"])
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == sorted([*m["files"], "manifest.json"])


def test_an_unknown_rknn_platform_is_exit_2_before_any_work(calib, tmp_path, capsys):
    assert _export(calib, tmp_path / "x", "--rknn", "rk9999") == 2
    assert "not an RKNN-Toolkit2 platform" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
