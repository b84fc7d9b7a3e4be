"""Data sanity of the gate: garbage evaluation or calibration data is exit 2 with one line naming the file."""
from __future__ import annotations

import numpy as np
import pytest

from npuready.cli import main
from npuready.errors import InputError
from npuready.verify.data_check import check_calibration, check_evaluation


def _x(n=8, value=None):
    x = np.random.default_rng(0).random((n, 1, 4, 4), dtype=np.float32)
    return x if value is None else np.full_like(x, value)


@pytest.mark.parametrize("x, labels, message", [
    (_x(0), None, "d.npz: no images; the gate needs at least one"),
    (_x(), np.array([1]), "d.npz: 1 labels for 8 images; give exactly one label per image"),
    (_x(), np.array([0, 1, 2, 3, 4, 5, 6, 10]), "d.npz: image 7: label 10 is outside the class range 0…9 "
                                                 "(the model has 10 outputs)"),
    (_x(), np.array([0, 1, 2, -1, 4, 5, 6, 7]), "d.npz: image 3: label -1 is outside the class range"),
    (_x(), np.zeros(8, np.float32), "labels of type float32 are not integer class indices"),
    (_x(value=np.nan), None, "d.npz: image 0 holds NaN or infinite values (8 of 8 inputs do)"),
])
def test_evaluation_data_refused(x, labels, message):
    with pytest.raises(InputError) as exc:
        check_evaluation(x, labels, 10, "d.npz")
    assert message in str(exc.value)


def test_evaluation_data_accepted_and_names_files():
    check_evaluation(_x(), np.arange(8), 10, "d.npz")
    x = _x()
    x[5, 0, 0, 0] = np.inf
    with pytest.raises(InputError, match=r"^calib: 5/b.npy holds NaN or infinite values \(1 of 8 inputs do\)"):
        check_evaluation(x, None, 10, "calib", [f"{i}/{'ab'[i % 2]}.npy" for i in range(8)])


def test_calibration_refused_when_constant_or_non_finite():
    check_calibration(_x(), "c")
    with pytest.raises(InputError, match="c: every calibration value is 0 over 8 inputs"):
        check_calibration(_x(value=0.0), "c")
    with pytest.raises(InputError, match="c: image 0 holds NaN"):
        check_calibration(_x(value=np.nan), "c")


def test_verify_and_quantize_exit_2_on_garbage_data(ladder_files, tmp_path, capsys):
    x = np.load(ladder_files["data"])["x"]
    np.savez(tmp_path / "one_label.npz", x=x[:8], y=np.array([3]))
    np.savez(tmp_path / "nan.npz", x=np.full_like(x[:8], np.nan))
    for data in ("one_label", "nan"):
        assert main(["verify", str(ladder_files["float"]), str(ladder_files["qdq"]),
                     "--data", str(tmp_path / f"{data}.npz")]) == 2
    assert main(["quantize", str(ladder_files["float"]), "--calibration", str(tmp_path / "nan.npz"),
                 "--out", str(tmp_path / "q.onnx")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"npuready verify: error: {tmp_path / 'one_label.npz'}: 1 labels for 8 images; give exactly one "
                   "label per image in 'y'",
                   f"npuready verify: error: {tmp_path / 'nan.npz'}: 'x': contains NaN or infinity (first at flat "
                   "index 0); inputs must be finite",
                   f"npuready quantize: error: {tmp_path / 'nan.npz'}: 'x': contains NaN or infinity (first at flat "
                   "index 0); inputs must be finite"]
    assert not (tmp_path / "q.onnx").exists()
