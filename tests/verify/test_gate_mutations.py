"""The gate against corrupted QDQ files: every mutation of a valid tinycnn QDQ model fails the gate, and
a reason names the tensor the mutation breaks. Zoo model + the committed Fashion-MNIST subset."""
from __future__ import annotations

import onnx
import pytest

from npuready.cli import main
from npuready.verify.gate import GateLimits, gate
from npuready.verify.ladder import run_ladder
from qdq_mutations import BIAS_SCALE, MUTATIONS, _edit, _first


@pytest.fixture(scope="module")
def valid(tinycnn_qdq):
    return tinycnn_qdq


def test_the_unmutated_model_passes(valid):
    fm, qdq, data = valid
    r = run_ladder(fm, qdq, data.x, data.labels)
    assert gate(r, GateLimits()).passed and r.refused == {} and r.first_gross is None
    assert set(r.accuracy) == {"float", "fake_quant", "integer"}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_every_mutation_fails_the_gate_naming_the_tensor(valid, mutation):
    fm, qdq, data = valid
    mutate, tensor = MUTATIONS[mutation]
    r = run_ladder(fm, mutate(qdq), data.x, data.labels)
    v = gate(r, GateLimits())
    assert not v.passed
    assert any(tensor in reason for reason in v.reasons), v.reasons
    assert not any("numerical semantics" in line for line in r.explanation)


def test_nan_bias_scale_fails_through_the_cli(valid, tmp_path, capsys):
    fm, qdq, _ = valid
    onnx.save(fm, tmp_path / "f.onnx")
    onnx.save(_edit(qdq, BIAS_SCALE, _first(float("nan"))), tmp_path / "q.onnx")
    assert main(["verify", str(tmp_path / "f.onnx"), str(tmp_path / "q.onnx"), "--images", "40"]) == 1
    out = capsys.readouterr().out
    assert ("GATE FAIL: integer (the NPU build) rung did not run: scale classifier.1.bias_quantized_scale[0] = nan: "
            "a quantisation scale must be finite and > 0 (1 of 10 bad); re-quantise the model") in " ".join(out.split())
    assert "numerical semantics" not in out and "GATE PASS" not in out
