"""The HTP backend run in its own environment (skipped when `make qnn-env` has not made .venv-qnn)."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from npuready.errors import InputError
from npuready.vendor import qnn_htp

needs_qnn = pytest.mark.skipif(not qnn_htp.available(), reason="run `make qnn-env` for Qualcomm's HTP backend")


def _qdq(tmp_path, op: str):
    from npuready.quant.ptq import quantize_model

    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((4, 1, 3, 3)).astype(np.float32), "w")
    nodes = [helper.make_node("Conv", ["input", "w"], ["c"], name="conv", kernel_shape=[3, 3]),
             helper.make_node(op, ["c"], ["e"], name="act"), helper.make_node("Relu", ["e"], ["y"], name="relu")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 1, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 6, 6])], [w])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    q = quantize_model(m, [rng.random((1, 1, 8, 8)).astype(np.float32) for _ in range(4)])
    path = tmp_path / f"{op}.onnx"
    onnx.save(q, path)
    return path


@needs_qnn
def test_erf_is_refused_by_name_and_runs_on_the_cpu(tmp_path):
    r = qnn_htp.run(_qdq(tmp_path, "Erf"), np.random.default_rng(1).random((3, 1, 8, 8)))
    assert [(x.node, x.op_type) for x in r.placement.refused] == [("act", "Erf")]
    assert ("Erf", "act") in r.placement.cpu_nodes
    assert r.htp[0].shape == r.cpu[0].shape == (3, 4, 6, 6)
    assert "onnxruntime-qnn 2.7.0" in r.versions


@needs_qnn
def test_a_supported_graph_runs_in_one_qnn_partition(tmp_path):
    r = qnn_htp.run(_qdq(tmp_path, "Sigmoid"), np.random.default_rng(1).random((2, 1, 8, 8)))
    assert r.placement.refused == () and r.placement.partitions == 1
    assert {op for op, _ in r.placement.cpu_nodes} <= {"QuantizeLinear", "DequantizeLinear"}


def test_a_missing_environment_is_an_input_error(tmp_path, monkeypatch):
    monkeypatch.setenv(qnn_htp.ENV_VAR, str(tmp_path / "none"))
    with pytest.raises(InputError, match="make qnn-env"):
        qnn_htp.run(tmp_path / "m.onnx", np.zeros((1, 1, 8, 8)))
