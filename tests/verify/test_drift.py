"""Fake-quant vs float per quantised activation: rounding stays far below the gross limit; a broken weight
makes the first gross tensor the output of the op that reads it."""
from __future__ import annotations

from npuready.verify.drift import GROSS_RELATIVE_ERROR, describe
from npuready.verify.ladder import run_ladder
from qdq_mutations import MUTATIONS


def test_a_valid_model_has_no_gross_tensor(tinycnn_qdq):
    fm, qdq, data = tinycnn_qdq
    r = run_ladder(fm, qdq, data.x, data.labels)
    assert [d.float_name for d in r.drift] == [
        "input", "/features/features.2/Relu_output_0", "/features/features.3/MaxPool_output_0",
        "/features/features.6/Relu_output_0", "/features/features.7/MaxPool_output_0",
        "/features/features.10/Relu_output_0", "/classifier/classifier.0/Flatten_output_0", "logits"]
    assert r.first_gross is None and max(d.relative_error for d in r.drift) < GROSS_RELATIVE_ERROR / 5


def test_swapped_weights_are_located_at_the_op_that_reads_them(tinycnn_qdq):
    fm, qdq, data = tinycnn_qdq
    mutate, _ = MUTATIONS["weights swapped (output channels reversed)"]
    g = run_ladder(fm, mutate(qdq), data.x, data.labels).first_gross
    assert (g.tensor, g.producer, g.weights) == ("/features/features.6/Relu_output_0_QuantizeLinear_Output",
                                                 "/features/features.4/Conv",
                                                 ("onnx::Conv_38_quantized", "onnx::Conv_39_quantized"))
    assert describe(g).startswith("the QDQ model departs from float first at "
                                  "/features/features.6/Relu_output_0_QuantizeLinear_Output (computed by "
                                  "/features/features.4/Conv from onnx::Conv_38_quantized, onnx::Conv_39_quantized)")
