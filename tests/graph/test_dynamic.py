"""Which non-static dims follow from the graph inputs (R001a's notion of dynamic), and which stay unresolved."""
from npuready.experiments.onnx_corpus import corpus_root
from npuready.graph import load
from npuready.graph.dynamic import input_dependent, unresolved_values
from npuready.lint import examples as ex

import shape_patterns as sp


def test_dims_named_after_an_input_dim_depend_on_it():
    depends = input_dependent(load(ex.conv_relu(shape=("N", 3, 16, 16))))
    assert (depends("N"), depends("2*N"), depends("floor(N/2)"), depends("unk__3"), depends(None)) == \
        (True, True, True, False, False)


def test_with_static_inputs_nothing_left_unknown_depends_on_them():
    depends = input_dependent(load(ex.conv_relu(shape=(1, 3, 16, 16))))
    assert (depends("unk__3"), depends(None)) == (False, False)


def test_an_unknown_input_dim_may_explain_any_unknown_dim():
    depends = input_dependent(load(ex.conv_relu(shape=(None, 3, 16, 16))))
    assert (depends("unk__3"), depends(None)) == (True, True)


def test_unresolved_values():
    assert unresolved_values(load(sp.cls_token("batch"))) == ()  # everything follows from 'batch'
    seq = load(corpus_root() / "simple" / "test_sequence_model1" / "model.onnx")
    assert unresolved_values(seq) == ("out",)
