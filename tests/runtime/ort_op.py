"""Run one ONNX operator in onnxruntime (reference for the CPU post-processing functions)."""
from __future__ import annotations

import numpy as np
import onnxruntime as ort
from onnx import helper, numpy_helper


def run_op(op: str, inputs: dict[str, np.ndarray], n_outputs: int = 1, constants: dict | None = None, **attrs):
    """Graph inputs are ``inputs`` (in order); ``constants`` become initializers appended after them."""
    constants = constants or {}
    names = list(inputs) + list(constants)
    outs = [f"y{i}" for i in range(n_outputs)]
    node = helper.make_node(op, names, outs, **attrs)
    vis = [helper.make_tensor_value_info(k, helper.np_dtype_to_tensor_dtype(v.dtype), list(v.shape))
           for k, v in inputs.items()]
    graph = helper.make_graph([node], "op", vis, [helper.make_value_info(o, helper.TypeProto()) for o in outs],
                              initializer=[numpy_helper.from_array(np.asarray(v), k) for k, v in constants.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    res = sess.run(None, inputs)
    return res if n_outputs > 1 else res[0]
