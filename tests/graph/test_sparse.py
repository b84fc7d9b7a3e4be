"""Sparse initializers: read as the dense tensor they stand for, or refused in one line (never AttributeError)."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from npuready.cli import main
from npuready.errors import InputError
from npuready.graph.load import load


def _model(path, dims=(4,), values=(1.0, 2.0), indices=(0, 3)):
    vals = numpy_helper.from_array(np.array(values, np.float32), "w")
    idx = numpy_helper.from_array(np.array(indices, np.int64), "w_idx")
    sp = helper.make_sparse_tensor(vals, idx, list(dims))
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
    g = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"], name="add")], "g", [x], [y],
                          sparse_initializer=[sp])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)
    return path


def test_a_sparse_initializer_becomes_its_dense_tensor(tmp_path):
    g = load(_model(tmp_path / "m.onnx"))
    (init,) = g.model.graph.initializer
    assert init.name == "w" and numpy_helper.to_array(init).tolist() == [1.0, 0.0, 0.0, 2.0]
    assert len(g.model.graph.sparse_initializer) == 0


def test_coordinate_indices_are_read_too(tmp_path):
    vals = numpy_helper.from_array(np.array([5.0], np.float32), "w")
    idx = numpy_helper.from_array(np.array([[1, 0]], np.int64), "w_idx")
    m = onnx.load(_model(tmp_path / "m.onnx"))
    m.graph.ClearField("sparse_initializer")
    m.graph.sparse_initializer.append(helper.make_sparse_tensor(vals, idx, [2, 2]))
    m.graph.node[0].input[1] = "r"
    m.graph.node.insert(0, helper.make_node("Reshape", ["w", "shape"], ["r"], name="rs"))
    m.graph.initializer.append(numpy_helper.from_array(np.array([1, 4], np.int64), "shape"))
    g = load(m)
    w = next(t for t in g.model.graph.initializer if t.name == "w")
    assert numpy_helper.to_array(w).tolist() == [[0.0, 0.0], [5.0, 0.0]]


@pytest.mark.parametrize("kwargs, words", [
    ({"dims": (1 << 40,)}, "declares 1,099,511,627,776 elements, above the"),
    ({"indices": (0, 9)}, "an index lies outside its 4 elements"),
    ({"indices": (0,)}, "indices of shape [1] do not match 2 values"),
])
def test_bad_sparse_initializers_exit_2_with_one_line(kwargs, words, tmp_path, capsys):
    path = _model(tmp_path / "m.onnx", **kwargs)
    with pytest.raises(InputError, match="sparse initializer 'w'"):
        load(path)
    assert main(["lint", str(path)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert words in line and line.startswith("npuready lint: error: ")


def test_lint_and_cost_run_on_a_model_with_a_sparse_initializer(tmp_path, capsys):
    path = _model(tmp_path / "m.onnx")
    assert main(["lint", str(path)]) in (0, 1) and main(["cost", str(path)]) == 0
    assert "Traceback" not in capsys.readouterr().err
