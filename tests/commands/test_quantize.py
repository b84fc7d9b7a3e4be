"""`npuready quantize`: an opset-11 export comes out as a valid QDQ model; a quantised input is refused."""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from npuready.cli import main

RNG = np.random.default_rng(3)


def _paddle_like(path):
    """Conv → BatchNormalization → Relu at opset 11 with the batch written as -1 (as Paddle2ONNX writes it)."""
    c = 4
    inits = [numpy_helper.from_array(RNG.normal(size=(c, 3, 3, 3)).astype(np.float32), "w")] + [
        numpy_helper.from_array(a.astype(np.float32), n) for n, a in
        (("s", RNG.uniform(0.5, 2, c)), ("b", RNG.normal(size=c)), ("m", RNG.normal(size=c)),
         ("v", RNG.uniform(0.5, 2, c)))]
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             helper.make_node("BatchNormalization", ["c", "s", "b", "m", "v"], ["n"], name="bn"),
             helper.make_node("Relu", ["n"], ["y"], name="relu")]
    g = helper.make_graph(nodes, "paddle_like", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [-1, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [-1, c, 8, 8])], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)], ir_version=7), path)
    return path


def test_an_opset_11_export_quantises_to_a_qdq_model_the_checker_accepts(tmp_path, capsys):
    model = _paddle_like(tmp_path / "m.onnx")
    calib = tmp_path / "calib.npz"
    np.savez(calib, x=RNG.normal(size=(4, 3, 8, 8)).astype(np.float32))
    out = tmp_path / "q.onnx"
    assert main(["quantize", str(model), "--out", str(out), "--batch", "1", "--calibration", str(calib),
                 "--images", "4"]) == 0
    q = onnx.load(out)
    onnx.checker.check_model(q)
    assert next(i.version for i in q.opset_import if i.domain in ("", "ai.onnx")) == 13
    assert not any(n.op_type == "BatchNormalization" for n in q.graph.node)
    assert any(n.op_type == "DequantizeLinear" and any(a.name == "axis" for a in n.attribute) for n in q.graph.node)
    assert "imported: 2 dims made dynamic, opset 11 → 13, 1 BatchNormalization folded" in capsys.readouterr().err


def test_an_already_quantised_model_is_refused_with_one_line(tmp_path, capsys):
    from npuready.thirdparty.catalog import DDDDOCR
    from npuready.thirdparty.wheels import fetch

    path = fetch(DDDDOCR, ("ddddocr/common_old.onnx",))["ddddocr/common_old.onnx"]
    assert main(["quantize", str(path), "--out", str(tmp_path / "q.onnx"), "--input-shape", "input1=1,1,64,128"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith(
        "already quantised (22 DynamicQuantizeLinear, 21 ConvInteger, 1 MatMulInteger); give the float model it "
        "was quantised from")
    assert not (tmp_path / "q.onnx").exists()
