"""`npuready verify`: a model the integer path cannot build fails the gate with the reason (exit 1); an error
about a node names the file the node is in (exit 2, one line)."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from npuready.cli import main


def _save(tmp_path, nodes, out_shape, initializers):
    g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
                     [h.make_tensor_value_info("y", T.FLOAT, out_shape)], initializer=initializers)
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), tmp_path / "f.onnx")
    rng = np.random.default_rng(0)
    np.savez(tmp_path / "x.npz", x=rng.normal(0, 1, (8, 3, 8, 8)).astype(np.float32))


def _conv(rng):
    return (h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
            nh.from_array(rng.normal(0, 0.5, (4, 3, 3, 3)).astype(np.float32), "w"))


@pytest.mark.parametrize("litert", [False, True])
def test_a_node_without_an_integer_kernel_fails_the_gate_with_its_reason(tmp_path, capsys, litert):
    if litert:
        pytest.importorskip("ai_edge_litert")
    conv, w = _conv(np.random.default_rng(0))
    _save(tmp_path, [conv, h.make_node("GlobalMaxPool", ["c"], ["p"]), h.make_node("Flatten", ["p"], ["y"])],
          [1, 4], [w])
    assert main(["quantize", str(tmp_path / "f.onnx"), "--calibration", str(tmp_path / "x.npz"),
                 "--out", str(tmp_path / "q.onnx")]) == 0
    capsys.readouterr()
    code = main(["verify", str(tmp_path / "f.onnx"), str(tmp_path / "q.onnx"), "--data", str(tmp_path / "x.npz")]
                + (["--litert"] if litert else []))
    out = " ".join(capsys.readouterr().out.split())
    assert code == 1
    assert "GATE FAIL: integer (the NPU build) rung did not run: node GlobalMaxPool" in out


def test_an_op_litert_cannot_run_is_named_with_its_file(tmp_path, capsys):
    pytest.importorskip("ai_edge_litert")
    rng = np.random.default_rng(0)
    conv, w = _conv(rng)
    shape = [1, 4, 8, 8]
    gamma = nh.from_array(np.ones(8, np.float32), "gamma")
    beta = nh.from_array(np.zeros(8, np.float32), "beta")
    _save(tmp_path, [conv, h.make_node("LayerNormalization", ["c", "gamma", "beta"], ["y"], axis=-1)], shape,
          [w, gamma, beta])
    assert main(["quantize", str(tmp_path / "f.onnx"), "--calibration", str(tmp_path / "x.npz"),
                 "--layernorm", "keep", "--out", str(tmp_path / "q.onnx")]) == 0
    capsys.readouterr()
    code = main(["verify", str(tmp_path / "f.onnx"), str(tmp_path / "q.onnx"), "--data", str(tmp_path / "x.npz"),
                 "--litert"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0].startswith(f"npuready verify: error: {tmp_path / 'q.onnx'}: ")
    assert "LayerNorm" in err[0]


def test_a_decomposed_layernorm_runs_on_litert_bit_exactly(tmp_path, capsys):
    pytest.importorskip("ai_edge_litert")
    rng = np.random.default_rng(0)
    conv, w = _conv(rng)
    gamma = nh.from_array(rng.normal(1, 0.1, 8).astype(np.float32), "gamma")
    beta = nh.from_array(rng.normal(0, 0.1, 8).astype(np.float32), "beta")
    _save(tmp_path, [conv, h.make_node("LayerNormalization", ["c", "gamma", "beta"], ["y"], axis=-1)],
          [1, 4, 8, 8], [w, gamma, beta])
    assert main(["quantize", str(tmp_path / "f.onnx"), "--calibration", str(tmp_path / "x.npz"),
                 "--out", str(tmp_path / "q.onnx")]) == 0
    assert "1 LayerNormalization decomposed into int8 ops" in capsys.readouterr().err
    code = main(["verify", str(tmp_path / "f.onnx"), str(tmp_path / "q.onnx"), "--data", str(tmp_path / "x.npz"),
                 "--litert", "--require-bitexact", "--format", "json"])
    import json

    doc = json.loads(capsys.readouterr().out)
    assert doc["litert_reference"]["tensors_mismatched"] == 0 and doc["litert_reference"]["tensors_compared"] > 0
    assert code in (0, 1) and not any("LiteRT" in r for r in doc["gate"]["reasons"])
