"""Shape pins: graph inputs' dims fixed before resolution; bad pins are one-line InputErrors."""
import onnx
import pytest
from onnx import TensorProto, helper

from npuready.errors import InputError
from npuready.graph import load
from npuready.graph.pins import ShapePins, apply_pins, parse_input_shape

import shape_patterns as sp


def _two_inputs() -> onnx.ModelProto:
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, ["n", 4])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, ["n", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 4])
    g = helper.make_graph([helper.make_node("Add", ["a", "b"], ["y"], name="add")], "two", [a, b], [y])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_parse_input_shape():
    assert parse_input_shape("image=1,3,224,224") == ("image", (1, 3, 224, 224))
    assert parse_input_shape("a=b=2,3") == ("a=b", (2, 3))  # the last '=' separates the name


@pytest.mark.parametrize("text, message", [
    ("image", "--input-shape 'image': expected NAME=D0,D1,... (e.g. --input-shape image=1,3,224,224)"),
    ("image=", "--input-shape 'image=': expected NAME=D0,D1,... (e.g. --input-shape image=1,3,224,224)"),
    ("image=1,x,2", "--input-shape 'image=1,x,2': dim 'x' is not an integer; give positive sizes (e.g. "
                    "image=1,3,224,224)"),
    ("image=1,0,2", "--input-shape 'image=1,0,2': dim 0 is not positive; every size must be 1 or more"),
    ("image=1,-3", "--input-shape 'image=1,-3': dim -3 is not positive; every size must be 1 or more"),
])
def test_parse_input_shape_refuses(text, message):
    with pytest.raises(InputError) as err:
        parse_input_shape(text)
    assert str(err.value) == message


def test_batch_pins_dim_0_and_every_use_of_its_name():
    g = load(sp.flatten_gemm("batch"), pins=ShapePins(batch=3))
    assert g.inputs[0].shape == (3, 4, 2, 2)
    assert g.info("out").shape == (3, 3)
    assert g.pinned == "--batch 3"
    assert g.constant("flat_shape").tolist() == [3, -1]


def test_input_shape_pins_the_named_input():
    g = load(sp.cls_token("batch"), pins=ShapePins((("image", (2, 4, 1, 8)),)))
    assert g.info("seq").shape == (2, 5, 8)
    assert g.pinned == "--input-shape image=2,4,1,8"


def test_a_dim_name_shared_by_two_inputs_takes_one_size():
    g = load(_two_inputs(), pins=ShapePins((("a", (5, 4)),)))
    assert g.info("y").shape == (5, 4)
    assert g.info("b").shape == (5, 4)  # 'n' means the same size everywhere
    with pytest.raises(InputError) as err:
        load(_two_inputs(), pins=ShapePins((("a", (5, 4)), ("b", (6, 4)))))
    assert str(err.value) == ("<in-memory model>: input 'b' dim 0 is 'n', already pinned to 5 on another input; "
                              "--input-shape asks for 6")


def test_pins_change_only_a_copy():
    model = sp.flatten_gemm("batch")
    pinned = apply_pins(model, ShapePins(batch=1), "m.onnx")
    assert model.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    assert pinned.graph.input[0].type.tensor_type.shape.dim[0].dim_value == 1
    assert [n.name for n in pinned.graph.node] == [n.name for n in model.graph.node]


@pytest.mark.parametrize("pins, message", [
    (ShapePins((("img", (1, 4, 2, 2)),)),
     "m.onnx: --input-shape names input 'img', which the model does not have (its inputs: 'image')"),
    (ShapePins((("image", (1, 4, 2)),)),
     "m.onnx: --input-shape image=1,4,2 gives 3 dims but input 'image' has rank 4 [batch,4,2,2]; give 4 sizes"),
    (ShapePins((("image", (1, 3, 2, 2)),)),
     "m.onnx: input 'image' dim 1 is fixed at 4 by the model; --input-shape asks for 3; pin only symbolic dims "
     "(or re-export the model)"),
    (ShapePins(batch=0), "--batch 0: must be 1 or more"),
])
def test_bad_pins_are_refused_in_one_line(pins, message):
    with pytest.raises(InputError) as err:
        apply_pins(sp.flatten_gemm("batch"), pins, "m.onnx")
    assert str(err.value) == message


def test_batch_on_a_static_model_must_match_its_batch():
    assert load(sp.flatten_gemm(), pins=ShapePins(batch=1)).info("out").shape == (1, 3)
    with pytest.raises(InputError) as err:
        load(sp.flatten_gemm(), pins=ShapePins(batch=2))
    assert str(err.value) == ("<in-memory model>: input 'image' dim 0 is fixed at 1 by the model; --batch asks "
                              "for 2; pin only symbolic dims (or re-export the model)")


def test_pinned_dynamic_export_equals_the_static_one():
    static, pinned = load(sp.channel_shuffle()), load(sp.channel_shuffle("batch"), pins=ShapePins(batch=1))
    assert {n.name: pinned.info(n.outputs[0]).shape for n in pinned.nodes} == \
        {n.name: static.info(n.outputs[0]).shape for n in static.nodes}
    assert pinned.folded == static.folded
