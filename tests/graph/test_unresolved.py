"""partition and cost refuse a graph input with an unpinned dynamic dim, in one line naming node and dim."""
import onnx
import pytest
from onnx import TensorProto, helper

from npuready.cost import estimate
from npuready.errors import InputError
from npuready.graph import load
from npuready.graph.pins import ShapePins
from npuready.graph.unresolved import require_pinned
from npuready.partition import plan_partition

import shape_patterns as sp

BATCH = ("flatten_gemm: node 'conv' (Conv) input 'image' dim 0 ('batch') is unresolved, so {verb} cannot "
         "size anything; pin it with --batch 1 or --input-shape image=1,4,2,2")


@pytest.mark.parametrize("call, verb", [(plan_partition, "the partition"), (estimate, "the cost model")])
def test_dynamic_batch_is_refused_naming_node_and_dim(call, verb):
    with pytest.raises(InputError) as err:
        call(sp.flatten_gemm("batch"))
    assert str(err.value) == BATCH.format(verb=verb)


def _model(shape, used: bool = True) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)
    k = helper.make_tensor_value_info("k", TensorProto.FLOAT, [1, 3, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * 4)
    node = helper.make_node("Relu", ["x" if used else "k"], ["y"], name="relu")
    g = helper.make_graph([node], "m", [x, k], [y])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_a_symbolic_spatial_dim_gets_an_input_shape_suggestion_with_placeholders():
    with pytest.raises(InputError) as err:
        require_pinned(load(_model([1, 3, "height", "width"])), "the partition")
    assert str(err.value) == ("m: node 'relu' (Relu) input 'x' dim 2 ('height') is unresolved, so "
                              "the partition cannot size anything; pin it with --input-shape x=1,3,<height>,<width>")


def test_an_unknown_dim_without_a_name():
    with pytest.raises(InputError) as err:
        require_pinned(load(_model([None, 3, 8, 8])), "the cost model")
    assert str(err.value) == ("m: node 'relu' (Relu) input 'x' dim 0 ('x_dim0') is unresolved, so the cost "
                              "model cannot size anything; pin it with --batch 1 or --input-shape x=1,3,8,8")


def test_an_unused_dynamic_input_is_not_refused():
    require_pinned(load(_model(["n", 3, 8, 8], used=False)), "the partition")


@pytest.mark.parametrize("build", [sp.flatten_gemm, sp.channel_shuffle, sp.chunk_conv, sp.cls_token])
def test_pinned_dynamic_export_plans_and_costs_like_the_static_one(build):
    static, pinned = load(build()), load(build("batch"), pins=ShapePins(batch=1))
    a, b = estimate(static), estimate(pinned)
    assert b.cycles == a.cycles and b.macs == a.macs and b.cycles > 0
    pa, pb = plan_partition(static), plan_partition(pinned)
    assert [p.device for p in pb.placements] == [p.device for p in pa.placements]
    assert pb.verdict == pa.verdict == "one-body"
