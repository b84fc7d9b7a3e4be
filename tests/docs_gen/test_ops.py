"""docs/ops.md is generated from the kernel, C++ and TFLite registries (freshness: test_registry.py)."""
import pytest

pytest.importorskip("ai_edge_litert")

from npuready.docs_gen.ops import render, rows  # noqa: E402


def test_rows_follow_the_registries():
    by_op = {r["op"]: r for r in rows()}
    assert by_op["Sub"]["kernel"] == "engine/ops/add.py" and by_op["Sub"]["kinds"] == ["Add"]
    assert by_op["Split"]["kinds"] == ["Slice"] and by_op["Split"]["tflite"] == "slicing.lower_split"
    assert by_op["MatMul"]["kinds"] == ["Gemm", "MatMul"] and by_op["MatMul"]["rounding"] == ["double", "single"]
    assert by_op["Erf"]["tflite"] == "table.lower_table" and by_op["Erf"]["table"]
    assert by_op["BatchNormalization"]["kernel"] == "engine/ops/batchnorm.py" and by_op["BatchNormalization"]["cpp"]
    assert by_op["BatchNormalization"]["tflite"] == "batchnorm.lower_batchnorm"


def test_every_integer_kernel_has_its_cpp_twin():
    assert [r["op"] for r in rows() if r["kinds"] and not r["cpp"]] == []


def test_page_names_its_evidence():
    text = render()
    assert "not with NPU silicon" in text
    assert "| `Resize` | `engine/ops/resize.py` | Resize, ResizeBilinear | double | yes |" in text
