"""``quant.keep_float``: the layers a QDQ model quantises, and a mixed build that keeps chosen ones float."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import numpy_helper

from npuready.errors import InputError
from npuready.quant.keep_float import keep_float, kept_float, quantised_layers
from sens_tiny import LAYERS, tiny_inputs, tiny_model, tiny_qdq


@pytest.fixture(scope="module")
def models():
    fm = tiny_model()
    return fm, tiny_qdq(fm)


def test_the_layers_with_quantised_weights_are_listed_in_graph_order(models):
    _, q = models
    layers = quantised_layers(q)
    assert [(layer.name, layer.op_type) for layer in layers] == [("c1", "Conv"), ("c2", "Conv"), ("fc", "Gemm")]
    assert all(layer.quantize is not None and len(layer.weights) == 2 for layer in layers)


def test_a_kept_layer_reads_the_float_models_own_weights_and_is_recorded(models):
    fm, q = models
    m = keep_float(q, fm, ["c2"])
    # the weightless ops fed only by c2 run in float with it; their activations are unrounded Clips
    clips = {n.name for n in m.graph.node if n.op_type == "Clip"}
    assert set(kept_float(m)) == {"c2", "gap", "flat"} | clips and kept_float(q) == []
    assert sum(n.op_type == "Clip" for n in m.graph.node) == 2
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    float_w = {i.name: numpy_helper.to_array(i) for i in fm.graph.initializer}
    c2 = next(n for n in m.graph.node if n.name == "c2")
    assert np.array_equal(inits[c2.input[1]], float_w["w2"]) and np.array_equal(inits[c2.input[2]], float_w["b2"])
    c1 = next(n for n in m.graph.node if n.name == "c1")
    assert c1.input[1] not in inits  # still a DequantizeLinear output
    assert sum(n.op_type == "DequantizeLinear" for n in m.graph.node) == \
        sum(n.op_type == "DequantizeLinear" for n in q.graph.node) - 2 - 2


def test_an_unknown_layer_is_refused_by_name(models):
    fm, q = models
    with pytest.raises(InputError, match="--keep-float nosuch: no quantised layer of that name"):
        keep_float(q, fm, ["nosuch"])


def test_the_integer_engine_runs_kept_layers_in_float_and_matches_fake_quant_exactly(models):
    from npuready.engine import numpy_engine
    from npuready.engine.export import export_integer_graph
    from npuready.verify.runners import run_fake_quant

    fm, q = models
    m = keep_float(q, fm, LAYERS)
    graph = export_integer_graph(m)
    floats = [op for op in graph.ops if op.kind == "Float"]
    assert [op.name for op in floats] == ["fc"]  # one island: the whole graph after the input quantiser
    assert floats[0].params["float_nodes"] == len(kept_float(m)) == len(m.graph.node) - 4  # all but the Q/DQ ends
    x = tiny_inputs(8, seed=5)
    codes = [t for op in graph.ops for t in (*op.inputs, *op.outputs) if t in graph.tensors]
    _, fq = run_fake_quant(m, x, codes)
    for op in floats:  # fed fake-quant's codes, each float layer computes fake-quant's codes exactly
        assert np.array_equal(numpy_engine.run_op(op, [fq[i] for i in op.inputs]), fq[op.outputs[0]]), op.name
