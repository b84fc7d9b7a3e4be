"""Fuzz suite: hostile files on every verb that reads them → exit 2, one stderr line, no traceback,
nothing opened outside the folder the user gave, bounded memory.

Files come from ``hostile_files`` (one catalogue per format) plus seeded random mutations of valid files.
The verbs run in-process through ``npuready.cli.main``; an audit hook records every file the process
opens while a case runs.
"""
from __future__ import annotations

import json
import os
import resource
import sys
from pathlib import Path

import numpy as np
import pytest

import hostile_files as H
from npuready.cli import main
from npuready.paths import zoo_dir

MODEL = zoo_dir() / "tinycnn.onnx"
PEAK_RSS_BOUND_MIB = 3072  # the whole suite's peak resident memory (a 10^12-element header would need 3.6 TiB)

_opened: list[str] | None = None


def _audit(event: str, args) -> None:
    if _opened is not None and event == "open" and isinstance(args[0], (str, bytes, Path)):
        _opened.append(str(args[0]))


sys.addaudithook(_audit)


def _run(argv: list[str], capsys) -> tuple[int, str, list[str]]:
    global _opened
    _opened = []
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse usage errors
        rc = exc.code
    finally:
        opened, _opened = _opened, None
    return rc, capsys.readouterr().err, opened


def _assert_one_line_exit_2(rc, err, opened, folder: Path):
    assert rc == 2, err
    assert err.count("\n") == 1 and err.startswith("npuready ") and "Traceback" not in err, err
    assert not any(ch in err for ch in "\x1b\x00"), err
    secret = (folder.parent / "outside" / "secret.npy").resolve()
    for path in opened:
        assert Path(path).resolve() != secret, f"opened {path} outside the given folder"
        assert path not in ("/etc/passwd", "/dev/zero"), f"opened {path}"


@pytest.fixture(scope="module")
def qdq(tmp_path_factory):
    out = tmp_path_factory.mktemp("q") / "q.onnx"
    assert main(["quantize", str(MODEL), "--calibration", "fashion-mnist:train", "--images", "8",
                 "--out", str(out)]) == 0
    return out


@pytest.fixture()
def case_dir(tmp_path):
    folder = tmp_path / "case"
    folder.mkdir()
    return folder


def _valid_npy(folder: Path) -> Path:
    path = folder / "valid.npy"
    np.save(path, np.zeros(H.SHAPE, np.float32))
    return path


@pytest.mark.parametrize("case", sorted(H.NPY))
@pytest.mark.parametrize("role", ["--runtime", "--calib"])
def test_npy_on_preprocess_diagnose(case, role, case_dir, capsys):
    bad, good = H.npy(case_dir, case), _valid_npy(case_dir)
    other = "--calib" if role == "--runtime" else "--runtime"
    _assert_one_line_exit_2(*_run(["preprocess", "diagnose", role, str(bad), other, str(good)], capsys), case_dir)


@pytest.mark.parametrize("case", sorted(H.MANIFEST))
def test_manifest_on_quantize(case, case_dir, capsys):
    calib = H.manifest(case_dir, case)
    argv = ["quantize", str(MODEL), "--calibration", str(calib), "--images", "4", "--out", str(case_dir / "q.onnx")]
    _assert_one_line_exit_2(*_run(argv, capsys), case_dir)
    assert not (case_dir / "q.onnx").exists()


@pytest.mark.parametrize("case", sorted(H.MANIFEST))
def test_manifest_on_verify(case, case_dir, qdq, capsys):
    calib = H.manifest(case_dir, case)
    _assert_one_line_exit_2(*_run(["verify", str(MODEL), str(qdq), "--data", str(calib), "--images", "4"], capsys),
                            case_dir)


@pytest.mark.parametrize("case", sorted(H.MANIFEST))
def test_manifest_on_deploy(case, case_dir, capsys):
    calib = H.manifest(case_dir, case)
    registry = case_dir / "registry"
    argv = ["deploy", str(MODEL), "--calib", str(calib), "--registry", str(registry), "--name", "m"]
    _assert_one_line_exit_2(*_run(argv, capsys), case_dir)
    assert not (registry / "index.json").exists()


@pytest.mark.parametrize("case", sorted(H.NPZ))
def test_npz_on_quantize(case, case_dir, capsys):
    data = H.npz(case_dir, case)
    argv = ["quantize", str(MODEL), "--calibration", str(data), "--images", "4", "--out", str(case_dir / "q.onnx")]
    if case in ("labels-mismatch", "float-labels", "negative-labels"):
        pytest.skip("quantize reads no labels")
    _assert_one_line_exit_2(*_run(argv, capsys), case_dir)


@pytest.mark.parametrize("case", sorted(H.NPZ))
def test_npz_on_verify(case, case_dir, qdq, capsys):
    data = H.npz(case_dir, case)
    _assert_one_line_exit_2(*_run(["verify", str(MODEL), str(qdq), "--data", str(data)], capsys), case_dir)


@pytest.mark.parametrize("case", sorted(H.SPEC))
def test_spec_on_preprocess(case, case_dir, capsys):
    path = H.spec(case_dir, case)
    good = _valid_npy(case_dir)
    argv = ["preprocess", "diagnose", "--runtime", str(good), "--calib", str(good), "--spec", str(path)]
    _assert_one_line_exit_2(*_run(argv, capsys), case_dir)


@pytest.mark.parametrize("verb", ["lint", "partition", "cost", "intake"])
@pytest.mark.parametrize("case", sorted(H.TARGET) + ["fifo"])
def test_target_file_on_every_analysis_verb(case, verb, case_dir, capsys):
    if case == "fifo":
        path = case_dir / "fifo.toml"
        os.mkfifo(path)
    else:
        path = H.target(case_dir, case)
    _assert_one_line_exit_2(*_run([verb, str(MODEL), "--target", str(path)], capsys), case_dir)


def test_a_valid_target_file_works_on_every_analysis_verb(case_dir, capsys):
    path = case_dir / "mytarget.toml"
    path.write_text(H._target_text().replace("{name}", "mytarget"), encoding="utf-8")
    for verb in ("lint", "partition", "cost", "intake"):
        rc, err, _ = _run([verb, str(MODEL), "--target", str(path)], capsys)
        assert rc in (0, 1) and err == "", (verb, err)


@pytest.mark.parametrize("argv, words", [
    (["--seed", "-1"], "--seed -1: the calibration sampling seed must be an integer"),
    (["--seed", str(2**40)], "must be an integer in 0..4294967295"),
    (["--calib-images", "0"], "--calib-images and --parity-images: must be at least 1"),
    (["--min-agreement", "nan"], "--min-agreement and --max-drop: must be fractions"),
])
def test_deploy_options(argv, words, case_dir, capsys):
    calib = H.manifest(case_dir, "symlink-out").parent  # never read: the options are checked first
    rc, err, opened = _run(["deploy", str(MODEL), "--calib", str(calib), "--registry", str(case_dir / "r"), *argv],
                           capsys)
    _assert_one_line_exit_2(rc, err, opened, case_dir)
    assert words in err and not (case_dir / "r").exists()


def _mutations(data: bytes, count: int, seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        b = bytearray(data)
        kind = rng.integers(3)
        if kind == 0 and b:  # flip bytes
            for i in rng.integers(0, len(b), size=int(rng.integers(1, 8))):
                b[int(i)] = int(rng.integers(256))
        elif kind == 1:  # truncate
            b = b[: int(rng.integers(0, max(len(b), 1)))]
        else:  # insert junk
            at = int(rng.integers(0, len(b) + 1))
            b[at:at] = bytes(rng.integers(0, 256, size=int(rng.integers(1, 16)), dtype=np.uint8))
        yield bytes(b)


def test_random_mutations_of_valid_files_never_crash(tmp_path, capsys):
    """Seeded byte mutations of a valid .npy, manifest and spec: any exit is 0, 1 or 2; 2 is one line."""
    good = _valid_npy(tmp_path)
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(H.SPEC_BASE))
    calib = tmp_path / "calib"
    calib.mkdir()
    np.save(calib / "s0.npy", np.zeros(H.SHAPE, np.float32))
    manifest = json.dumps({"samples": [{"file": "s0.npy", "label": 0}]}).encode()
    targets = [
        (tmp_path / "m.npy", good.read_bytes(),
         lambda p: ["preprocess", "diagnose", "--runtime", str(p), "--calib", str(good)]),
        (spec, spec.read_bytes(),
         lambda p: ["preprocess", "diagnose", "--runtime", str(good), "--calib", str(good), "--spec", str(p)]),
        (calib / "manifest.json", manifest,
         lambda p: ["quantize", str(MODEL), "--calibration", str(calib), "--images", "1",
                    "--out", str(tmp_path / "q.onnx")]),
    ]
    for index, (path, data, argv) in enumerate(targets):
        for mutated in _mutations(data, 12, seed=index):
            path.write_bytes(mutated)
            rc, err, _ = _run(argv(path), capsys)
            assert rc in (0, 1, 2) and "Traceback" not in err, (mutated[:80], err)
            if rc == 2:
                assert err.count("\n") == 1, err


def test_peak_memory_stays_bounded():
    """Runs last in this module: the hostile headers above never made the process allocate their claims."""
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert peak_mib < PEAK_RSS_BOUND_MIB, f"peak RSS {peak_mib:.0f} MiB"
