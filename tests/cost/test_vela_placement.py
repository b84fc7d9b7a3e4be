"""Operators Vela leaves to the CPU, read from the optimised model it writes (npuready.cost.vela_placement)."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from npuready.cost.vela_placement import placement
from npuready.errors import InputError


def _qdq(lower_hardsigmoid: bool, monkeypatch):
    from npuready.quant import ptq

    if not lower_hardsigmoid:
        monkeypatch.setattr(ptq, "decompose_hardsigmoid", lambda m: (m, 0))
    w = numpy_helper.from_array(np.random.default_rng(0).normal(0, 0.5, (8, 3, 3, 3)).astype(np.float32), "w")
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             helper.make_node("HardSigmoid", ["c"], ["h"], name="gate", alpha=1 / 6, beta=0.5),
             helper.make_node("Mul", ["c", "h"], ["y"], name="scale")]
    g = helper.make_graph(nodes, "hs", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 8, 8])], [w])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    rng = np.random.default_rng(1)
    return ptq.quantize_model(model, [rng.normal(0, 1, (1, 3, 8, 8)).astype(np.float32) for _ in range(4)])


@pytest.mark.parametrize("lowered,cpu_ops", [(True, []), (False, ["CAST", "GATHER"])])
def test_hardsigmoid_runs_on_the_npu_only_when_lowered(lowered, cpu_ops, tmp_path, monkeypatch):
    pytest.importorskip("ethosu.vela")
    from npuready.cost import vela
    from npuready.targets import load_target
    from npuready.tflite.export import export_int8_from_qdq

    tfl = tmp_path / "m.tflite"
    tfl.write_bytes(export_int8_from_qdq(_qdq(lowered, monkeypatch)))
    vela.compile_tflite(tfl, load_target("ethos-u55-128"), tmp_path / "out")
    npu, cpu = placement(tmp_path / "out" / "m_vela.tflite")
    assert [c.op for c in cpu] == cpu_ops and npu >= 1
    if cpu:  # the table is read by GATHER at HardSigmoid's own output
        assert cpu[-1].output == "h"


def test_a_file_that_is_not_a_tflite_model_is_refused(tmp_path):
    bad = tmp_path / "x_vela.tflite"
    bad.write_bytes(b"not a flatbuffer")
    with pytest.raises(InputError, match="not a TFLite model Vela wrote"):
        placement(bad)
