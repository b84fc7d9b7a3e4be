"""`npuready deploy`: exit codes 0 / 1 / 2, printed reason, registry content, --help."""
from __future__ import annotations

import json

import pytest

from deploy_models import calib_folder, classifier, save
from npuready.cli import main


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    root = tmp_path_factory.mktemp("deploy_cli")
    for name, m in {"good": classifier("good"), "softsign": classifier("softsign", activation="Softsign")}.items():
        save(m, root / f"{name}.onnx")
        calib_folder(root / f"calib_{name}", m, n=20)
    return root


def _deploy(work, name, *extra):
    return main(["deploy", str(work / f"{name}.onnx"), "--calib", str(work / f"calib_{name}"),
                 "--registry", str(work / "reg"), "--calib-images", "8", *extra])


def test_registered_blocked_and_unusable_exit_codes(work, capsys):
    assert _deploy(work, "good", "--format", "json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["registered"] is True and out["exit_code"] == 0 and out["blocked_stage"] is None
    assert out["command"] == (f"npuready deploy {work / 'good.onnx'} --target edge-10 --calib {work / 'calib_good'} "
                              f"--registry {work / 'reg'} --calib-images 8")
    assert _deploy(work, "softsign") == 1
    captured = capsys.readouterr()
    assert "NOT REGISTERED: blocked at lint" in captured.out
    assert "npuready deploy: blocked at lint: 1 lint ERROR(s): R005 act1 (Softsign)" in captured.err
    index = json.loads((work / "reg" / "index.json").read_text())
    assert [m["name"] for m in index["models"]] == ["good"]
    assert [(r["name"], r["stage"]) for r in index["rejections"]] == [("softsign", "lint")]
    assert index["models"][0]["command"] == out["command"]


@pytest.mark.parametrize("args, message", [
    (["deploy", "missing.onnx", "--calib", "."], "missing.onnx: no such ONNX file"),
    (["deploy", "not_a_zoo_model", "--calib", "."], "not a file and not in the zoo"),
    (["deploy", "{model}", "--calib", "{model}"], "not a folder"),
    (["deploy", "{model}", "--calib", ".", "--max-drop", "2"], "must be fractions"),
])
def test_unusable_input_is_exit_2_with_one_line(work, capsys, args, message):
    args = [a.replace("{model}", str(work / "good.onnx")) for a in args]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_help_defines_the_calibration_format(capsys):
    with pytest.raises(SystemExit):
        main(["deploy", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for phrase in ("manifest.json", "one sub-folder per class", "with or without the leading batch 1",
                   "Exit codes: 0 registered, 1 blocked"):
        assert phrase in text


def _folder(root, files):
    import numpy as np

    for rel, value in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        x = np.random.default_rng(len(rel)).random((1, 1, 28, 28), dtype=np.float32) if value is None else \
            np.full((1, 1, 28, 28), value, np.float32)
        np.save(root / rel, x)
    return root


@pytest.mark.parametrize("files, message", [
    ({"3/a.npy": None, "42/b.npy": None}, "{calib}: 42/b.npy: label 42 is outside the class range 0…9"),
    ({"1/a.npy": None, "2/b.npy": float("nan")}, "{calib}/2/b.npy: contains NaN or infinity (first at flat index 0); "
                                                 "inputs must be finite"),
    ({"a.npy": 0.5, "b.npy": 0.5}, "{calib} (calibration sample): every calibration value is 0.5 over 2 inputs"),
])
def test_garbage_calibration_data_is_exit_2_naming_the_file(work, tmp_path, capsys, files, message):
    calib = _folder(tmp_path / "calib", files)
    assert main(["deploy", str(work / "good.onnx"), "--calib", str(calib), "--registry", str(tmp_path / "reg")]) == 2
    err = capsys.readouterr().err
    assert message.format(calib=calib) in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "reg" / "index.json").exists()
