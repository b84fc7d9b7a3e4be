"""The budget for compile-time values: shape bombs refused before folding or symbolic inference allocate."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from npuready.cli import main
from npuready.graph import constant_budget
from npuready.graph.constant_budget import ConstantBudgetExceeded, check
from npuready.graph.load import load
from npuready.graph.resolve import onnx_inferred


def _bomb(path, n: int, via_shape: bool = False):
    """ConstantOfShape of the constant int64 shape [n] (or of Shape(x) with x declared [1, n]), then NonZero:
    a model of a few hundred bytes whose symbolic inference allocated n int64 ones."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, n] if via_shape else [1, 4])
    one = numpy_helper.from_array(np.array([1], np.int64))
    if via_shape:
        nodes = [helper.make_node("Shape", ["x"], ["s"], name="shape")]
        inits, outs = [], [helper.make_tensor_value_info("nz", TensorProto.INT64, [2, "n"])]
    else:
        nodes = [helper.make_node("Relu", ["x"], ["xr"], name="relu")]
        inits = [numpy_helper.from_array(np.array([n], np.int64), "s")]
        outs = [helper.make_tensor_value_info("nz", TensorProto.INT64, [1, "n"]),
                helper.make_tensor_value_info("xr", TensorProto.FLOAT, [1, 4])]
    nodes += [helper.make_node("ConstantOfShape", ["s"], ["z"], name="fill", value=one),
              helper.make_node("NonZero", ["z"], ["nz"], name="nz")]
    m = helper.make_model(helper.make_graph(nodes, "bomb", [x], outs, initializer=inits),
                          opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)
    return path


@pytest.mark.parametrize("via_shape", [False, True])
def test_a_shape_bomb_is_refused_naming_the_node_and_size(via_shape, tmp_path, capsys):
    path = _bomb(tmp_path / "bomb.onnx", 1 << 30 if not via_shape else 1 << 28, via_shape)
    assert path.stat().st_size < 400
    assert main(["lint", str(path)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    count = (1 << 30) if not via_shape else (1 << 28)
    assert line == (f"npuready lint: error: {path}: node 'fill' (ConstantOfShape) computes the compile-time value "
                    f"'z' of {count:,} elements ({count * 8:,} bytes), above the 536,870,912-byte budget for values "
                    "that constant folding and shape inference materialise; raise it with --max-constant-bytes N "
                    "if the model really needs it")


def test_the_budget_is_an_option_and_a_small_model_passes(tmp_path, capsys):
    path = _bomb(tmp_path / "small.onnx", 1 << 10)
    assert main(["lint", str(path)]) in (0, 1)
    assert main(["lint", str(path), "--max-constant-bytes", "4096"]) == 2
    assert "8,192 bytes), above the 4,096-byte budget" in capsys.readouterr().err
    assert main(["lint", str(path), "--max-constant-bytes", "0"]) == 2
    assert "--max-constant-bytes 0: must be a positive whole number of bytes" in capsys.readouterr().err
    assert main(["lint", str(path)]) in (0, 1)  # the default is back for the next run
    assert constant_budget.limit() == 512 << 20


def test_a_model_onnx_resolves_alone_is_never_checked(tmp_path):
    """Large constants are fine when neither pass runs (a weight-less VGG computes 411 MB of weights)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
    nodes = [helper.make_node("ConstantOfShape", ["s"], ["w"], name="w",
                              value=numpy_helper.from_array(np.array([0.0], np.float32))),
             helper.make_node("Add", ["x", "w"], ["y"], name="add")]
    init = numpy_helper.from_array(np.array([1, 4], np.int64), "s")
    m = helper.make_model(helper.make_graph(nodes, "g", [x], [y], initializer=[init]),
                          opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(ConstantBudgetExceeded, match="'w' of 4 elements \\(16 bytes\\)"):
        check(onnx_inferred(m), "m", max_bytes=8)
    constant_budget.set_limit(8)
    try:
        assert load(m).inference_error is None  # resolved by onnx alone: loaded
    finally:
        constant_budget.set_limit(None)
