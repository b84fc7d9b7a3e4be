"""The deploy text fits 80 columns."""
from npuready.deploy.pipeline import DeployResult, StageResult
from npuready.deploy.render import render_text
from npuready.terminal import overlong


def test_text_at_80_columns_has_no_breakable_line_over_80():
    stages = (StageResult("lint", "passed", "0 ERROR, 3 WARN on edge-10 (ONNX graph structure and onnxruntime "
                                            "acceptance, not NPU silicon)"),
              StageResult("gate", "blocked", "integer vs float top-1 agreement 0.9712 < 0.99 and accuracy drop "
                                             "0.0213 > 0.01 on 200 held-out inputs (measured)"))
    result = DeployResult(name="small_cnn", model="models/small_cnn.onnx", target="edge-10", model_sha256="ab" * 32,
                          stages=stages, registered=False, reason="gate", entry={}, registry="registry",
                          command="npuready deploy models/small_cnn.onnx --target edge-10 --calib calib "
                                  "--registry registry --min-agreement 0.99")
    text = render_text(result, width=80)
    assert overlong(text, 80) == []
    assert "[BLOCKED] gate" in text
