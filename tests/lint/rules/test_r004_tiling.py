import numpy as np
from onnx import helper
from rule_models import TARGET, findings, ids

from npuready.lint import examples as ex
from npuready.targets import load_target

COLS = load_target(TARGET).array_cols


def _gemm(n_out):
    return ex.model([helper.make_node("Gemm", ["x", "w", "b"], ["y"], name="fc", transB=1)],
                    [ex.value("x", [1, COLS])], [ex.value("y", [1, n_out])],
                    [ex.weights("w", (n_out, COLS)), ex.const("b", np.zeros(n_out, np.float32))])


def test_gemm_with_a_remainder_tile_warns_with_value_and_limit():
    (f,) = findings(_gemm(COLS + 3), "R004")
    assert (str(f.severity), f.evidence["value"], f.evidence["limit"]) == ("WARN", COLS + 3, f"multiple of {COLS}")


def test_multiple_of_the_array_width_passes():
    assert ids(_gemm(2 * COLS)) == []


def test_matmul_output_features_are_checked():
    m = ex.model([helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")], [ex.value("x", [1, 8, COLS])],
                 [ex.value("y", [1, 8, 10])], [ex.weights("w", (COLS, 10))])
    assert [f.evidence["value"] for f in findings(m, "R004")] == [10]


def test_warning_never_blocks():
    from npuready.lint import lint

    report = lint(_gemm(COLS + 1), target=TARGET)
    assert report.blocked is False and report.exit_code == 0
