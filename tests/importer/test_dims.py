"""Dims written as -1, 0 or an unnamed '?' become distinct dynamic dims per position (npuready.importer.dims)."""
from __future__ import annotations

import pytest
from onnx import helper
from importer_models import model, value

from npuready.errors import InputError
from npuready.graph import load
from npuready.graph.pins import ShapePins
from npuready.importer import canonicalise
from npuready.importer.dims import dim_name


def _relu(in_dims, out_dims=None):
    m = model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [value("x", [1, 3, 4, 4])],
              [value("y", [1, 3, 4, 4])])
    for vi, dims in ((m.graph.input[0], in_dims), (m.graph.output[0], out_dims or in_dims)):
        for d, written in zip(vi.type.tensor_type.shape.dim, dims):
            d.Clear()
            if isinstance(written, int):
                d.dim_value = written
            elif written is not None:
                d.dim_param = written
    return m


def _input_dims(m):
    return [d.dim_value if d.HasField("dim_value") else d.dim_param
            for d in m.graph.input[0].type.tensor_type.shape.dim]


def test_paddle_dims_become_one_dynamic_dim_per_position():
    m = _relu([-1, 3, "?", "?"])
    out, imported = canonicalise(m)
    assert _input_dims(out) == ["x_dim0", 3, "x_dim2", "x_dim3"]
    assert [r.detail for r in imported.of("dynamic-dim")] == [
        "input 'x' dim 0: -1 → dynamic 'x_dim0'", "input 'x' dim 2: ? → dynamic 'x_dim2'",
        "input 'x' dim 3: ? → dynamic 'x_dim3'", "output 'y' dim 0: -1 → unknown (inferred)"]
    assert _input_dims(m) == [-1, 3, "?", "?"]  # the caller's model is left as it is


def test_unset_and_zero_dims_are_dynamic_named_dims_are_kept():
    out, _ = canonicalise(_relu([0, 3, None, "width"]))
    assert _input_dims(out) == ["x_dim0", 3, "x_dim2", "width"]


def test_dim_names_are_safe_in_dim_expressions():
    assert dim_name("input.1", 0) == "input_1_dim0"
    assert dim_name("0image", 2) == "_0image_dim2"


def test_a_paddle_export_loads_and_h_and_w_pin_to_different_sizes():
    g = load(_relu([-1, 3, "?", "?"]), pins=ShapePins((("x", (1, 3, 48, 192)),)))
    assert g.inputs[0].shape == (1, 3, 48, 192)
    assert g.info("y").shape == (1, 3, 48, 192)


def test_batch_pins_the_minus_one_dim():
    g = load(_relu([-1, 3, 4, 4]), pins=ShapePins(batch=1))
    assert g.inputs[0].shape == (1, 3, 4, 4)


def test_a_negative_dim_on_an_initializer_is_still_refused():
    m = _relu([1, 3, 4, 4])
    t = helper.make_tensor("w", 1, [2], [1.0, 2.0])
    t.dims[0] = -2
    m.graph.initializer.append(t)
    with pytest.raises(InputError, match="initializer 'w' has a negative dimension"):
        load(m)
