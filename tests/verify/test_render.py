"""The verify text fits 80 columns."""
from npuready.terminal import overlong
from npuready.verify.gate import GateLimits, GateVerdict
from npuready.verify.ladder import LadderResult, TensorParity
from npuready.verify.render import to_text


def test_text_at_80_columns_has_no_breakable_line_over_80():
    tensor = TensorParity(op="/blocks/blocks.0/attn/qkv/MatMul_quant_with_a_long_name", kind="matmul", tensor="t",
                          float_name="f", rounding="double", elements=1000, mismatch_propagated=0.0312,
                          mismatch_local=0.001, max_abs_propagated=3, max_abs_local=1)
    result = LadderResult(model="a_model_with_a_rather_long_file_name_qdq.onnx", images=1000,
                          rounding_profile="tflite-ref",
                          engine="numpy", accuracy={"float": 0.9, "fake_quant": 0.89, "integer": 0.885},
                          agreement={"float_vs_fake_quant": 0.98, "float_vs_integer": 0.975}, tensors=(tensor,),
                          first_divergence=tensor.op,
                          explanation=("the integer graph diverges from the fake-quant model first at " + tensor.op
                                       + " where rounding of the requantisation multiplier differs by one LSB on "
                                         "3.12% of the codes, which then propagates through the remaining layers",))
    verdict = GateVerdict(passed=False, reasons=("top-1 agreement integer vs float 0.9750 is below the minimum 0.99 "
                                                 "set by --min-agreement; check the calibration set",))
    text = to_text(result, verdict, GateLimits(), width=80)
    assert overlong(text, 80) == []
    assert "GATE FAIL: top-1 agreement" in text


def test_a_task_ladder_shows_the_metric_per_rung_and_fits_80_columns():
    from npuready.verify.tasks.metric import TaskChoice, TaskScore

    score = TaskScore("IoU of the thresholded map", 0.41, 0.9, "", {"threshold": 0.3, "pixel_agreement": 0.9976})
    result = LadderResult(model="det_q.onnx", images=8, rounding_profile="tflite-ref", engine="numpy",
                          agreement={"fake_quant_vs_float": 0.0},
                          task=TaskChoice("dense", "inferred", "inferred from output [1, 1, 320, 320]"),
                          task_scores={"fake_quant_vs_float": score})
    verdict = GateVerdict(False, ("dense IoU of the thresholded map fake-quant vs float 0.4100 < limit 0.9",),
                          "model quantisation: the QDQ model as stored already departs from float")
    text = to_text(result, verdict, GateLimits(), width=80)
    flat = " ".join(text.split())
    assert overlong(text, 80) == []
    assert "task: dense (inferred from output [1, 1, 320, 320])" in flat
    assert ("dense fake_quant_vs_float: IoU of the thresholded map 0.4100 (FAIL, limit 0.9) threshold=0.3 "
            "pixel_agreement=0.9976") in flat
    assert "agreement fake_quant_vs_float=0.0000 (argmax of the raw first output; not gated for this task)" in flat
    assert "GATE CAUSE: model quantisation" in flat
    passed = to_text(result, GateVerdict(True, ()), GateLimits(task_limit=0.4), width=80)
    assert "GATE PASS (dense IoU of the thresholded map >= 0.4 per quantised rung)" in " ".join(passed.split())
