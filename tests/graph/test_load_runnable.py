"""Graphs onnxruntime cannot load are unusable input (exit 2 on every verb), never an "ok" lint."""
from __future__ import annotations

import pytest
from onnx import TensorProto, helper

from npuready.cli import main
from npuready.errors import InputError
from npuready.graph import load

X = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
Y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])


def _model(nodes, inputs=(X,), opset=17, initializers=()):
    m = helper.make_model(helper.make_graph(nodes, "g", list(inputs), [Y], list(initializers)),
                          opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


CASES = {
    "cycle": (_model([helper.make_node("Add", ["x", "b"], ["a"], name="add"),
                      helper.make_node("Relu", ["a"], ["b"], name="relu"),
                      helper.make_node("Identity", ["b"], ["y"], name="out")]),
              r"the graph has a cycle through node '(add|relu)'"),
    "undefined": (_model([helper.make_node("Add", ["x", "ghost"], ["y"], name="add")]),
                  r"node 'add' \(Add\) reads 'ghost', which no node, initializer or graph input defines"),
    "no-inputs": (_model([helper.make_node("Relu", ["w"], ["y"], name="relu")], inputs=(),
                         initializers=[helper.make_tensor("w", TensorProto.FLOAT, [1, 4], [0, 1, 2, 3])]),
                  r"the graph has no inputs"),
    "opset-1": (_model([helper.make_node("Relu", ["x"], ["y"])], opset=1),
                r"opset 1 of the default domain is outside 6\.\."),
    "opset-99": (_model([helper.make_node("Relu", ["x"], ["y"])], opset=99),
                 r"opset 99 of the default domain is outside"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_load_refuses(case):
    model, message = CASES[case]
    with pytest.raises(InputError, match=message):
        load(model)


@pytest.mark.parametrize("verb", ["lint", "partition", "cost"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_every_verb_exits_2_with_one_line(case, verb, tmp_path, capsys):
    path = tmp_path / f"{case}.onnx"
    path.write_bytes(CASES[case][0].SerializeToString())
    assert main([verb, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "Traceback" not in err


def test_a_valid_graph_still_loads():
    assert [n.op_type for n in load(_model([helper.make_node("Relu", ["x"], ["y"])])).nodes] == ["Relu"]
