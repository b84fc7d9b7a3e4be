"""Explained gate verdicts: float logit margins against the int8 logit step say whether a failing gate is the
model's doing (near-tied logits) or the arithmetic's (integer ≠ fake-quant / LiteRT)."""
import json

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from npuready.cli import main
from npuready.verify.margins import cause, margin_stats


def test_margin_stats_counts_flips_by_float_gap():
    f = np.array([[1.0, 0.95, 0.0], [2.0, 0.0, 0.1], [0.0, 0.35, 0.1], [0.5, 0.44, 0.0]])
    q = np.array([[0.9, 1.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 0.2], [0.5, 0.4, 0.0]])
    m = margin_stats(f, q, 0.1)  # gaps in steps: 0.5, 19, 2.5, 0.6
    assert (m.images, m.near_ties, m.flips) == (4, 2, 2)
    assert m.flips_below == {1: 1, 2: 1, 4: 2}
    assert m.agreement == 0.5
    assert m.margin_median_steps == pytest.approx(1.55)


def test_cause_names_the_model_for_near_ties_and_the_arithmetic_otherwise():
    near = margin_stats(np.array([[1.0, 0.99], [1.0, 0.99]]), np.array([[0.0, 1.0], [1.0, 0.0]]), 0.1)
    far = margin_stats(np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([[0.0, 1.0], [1.0, 0.0]]), 0.1)
    assert cause(near, 1.0, 0).startswith("model: 1 of 1 flips are near-ties")
    assert cause(near, 1.0, 0).endswith("the integer engine matches LiteRT's reference kernels on every tensor")
    assert cause(near, 1.0, None).endswith("integer ⇄ LiteRT not checked (add --litert)")
    assert cause(far, 1.0, 0).startswith("model quantisation: 1 of 1 flips have a float gap of at least one")
    assert cause(far, 0.5, None).startswith("arithmetic: the integer engine agrees with fake-quant")
    assert cause(far, 0.5, None).endswith("integer ⇄ LiteRT not checked (add --litert)")
    # LiteRT computed the same codes: the int8 kernels move the model, the engine is not at fault
    assert cause(far, 0.5, 0).startswith("int8 kernels, not the engine: the integer engine computes exactly what")
    assert "on only 50.0% of top-1" in cause(far, 0.5, 0)
    assert cause(near, 1.0, 3).startswith("arithmetic: 3 int8 tensors differ from LiteRT")


def _near_tie_classifier(path):
    """x (1×16) → Gemm → 3 logits; classes 0 and 1 differ by a weight perturbation far below one int8 logit step."""
    rng = np.random.default_rng(0)
    w0 = rng.normal(0, 1, 16)
    w = np.stack([w0, w0 + rng.normal(0, 1e-4, 16), -w0]).astype(np.float32)
    g = h.make_graph([h.make_node("Gemm", ["x", "w"], ["logits"], transB=1)], "near_tie",
                     [h.make_tensor_value_info("x", T.FLOAT, [1, 16])],
                     [h.make_tensor_value_info("logits", T.FLOAT, [1, 3])], initializer=[nh.from_array(w, "w")])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), path)
    x = np.abs(rng.normal(0, 1, (40, 16))).astype(np.float32) * np.sign(w0).astype(np.float32)
    return x


def test_verify_explains_a_gate_failed_by_near_tied_logits(tmp_path, capsys):
    pytest.importorskip("ai_edge_litert")
    x = _near_tie_classifier(tmp_path / "f.onnx")
    np.savez(tmp_path / "x.npz", x=x)
    assert main(["quantize", str(tmp_path / "f.onnx"), "--calib", str(tmp_path / "x.npz"),
                 "--out", str(tmp_path / "q.onnx")]) == 0
    capsys.readouterr()
    code = main(["verify", str(tmp_path / "f.onnx"), str(tmp_path / "q.onnx"), "--data", str(tmp_path / "x.npz"),
                 "--litert", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    m = doc["result"]["margins"]
    assert code == 1
    assert m["near_ties"] == 40 and m["flips"] > 0 and m["flips_below"]["1"] == m["flips"]
    assert doc["litert_reference"]["tensors_mismatched"] == 0
    assert doc["gate"]["cause"].startswith(f"model: {m['flips']} of {m['flips']} flips are near-ties")
    # --litert ran: the cause says so, even without --require-bitexact
    assert doc["gate"]["cause"].endswith("the integer engine matches LiteRT's reference kernels on every tensor")
    code = main(["verify", str(tmp_path / "f.onnx"), str(tmp_path / "q.onnx"), "--data", str(tmp_path / "x.npz")])
    text = capsys.readouterr().out
    assert code == 1
    assert "GATE CAUSE: model:" in text and "40 of 40 images" in " ".join(text.split())
