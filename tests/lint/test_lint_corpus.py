"""Every model shipped in the onnx wheel and every regenerated node test model lints without an exception."""
from __future__ import annotations

import warnings
from pathlib import Path

import onnx
import pytest

from npuready.errors import InputError
from npuready.lint import lint

DATA = Path(onnx.__file__).parent / "backend" / "test" / "data"


def corpus_files() -> list[Path]:
    files = sorted((DATA / "light").glob("*.onnx"))
    for sub in ("pytorch-converted", "pytorch-operator", "simple"):
        files += sorted((DATA / sub).glob("**/model.onnx"))
    return files


@pytest.fixture(scope="module")
def node_models():
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [(case.name, case.model) for case in collect_testcases() if case.model is not None]


def _lint_all(items):
    """Lint everything; InputError (genuinely unusable model) is counted, anything else propagates."""
    refused, rule_counts = [], {}
    for name, model in items:
        try:
            report = lint(model, target="edge-10")
        except InputError as exc:
            refused.append(f"{name}: {exc}")
            continue
        for rid in report.rule_ids():
            rule_counts[rid] = rule_counts.get(rid, 0) + 1
    return refused, rule_counts


def test_onnx_wheel_models_lint_without_exception():
    files = corpus_files()
    assert len(files) > 100  # light/ + pytorch-converted/ + pytorch-operator/ + simple/
    refused, counts = _lint_all((str(p.relative_to(DATA)), p) for p in files)
    print(f"\nonnx wheel corpus: {len(files)} models, {len(refused)} refused as unusable; models per rule {counts}")
    print("\n".join(refused))
    assert refused == []


# node test models onnxruntime cannot load: opset 1, or no graph input at all (constants only)
UNLOADABLE_NODE_TESTS = {
    "test_not_2d": "opset 1 of the default domain", "test_not_3d": "opset 1 of the default domain",
    "test_not_4d": "opset 1 of the default domain", "test_constant": "the graph has no inputs",
    **{f"test_optional_has_element_empty_no_input{kind}": "the graph has no inputs"
       for kind in ("_name_tensor_input", "_tensor_input", "_name_optional_input", "_optional_input")},
}


def test_node_test_models_lint_without_exception(node_models):
    """Every node test model lints, except those onnxruntime cannot load either (exit 2, one line)."""
    assert len(node_models) > 1000
    refused, counts = _lint_all(node_models)
    print(f"\nnode test models: {len(node_models)}, {len(refused)} refused as unusable; models per rule {counts}")
    print("\n".join(refused))
    assert sorted(r.split(":")[0] for r in refused) == sorted(UNLOADABLE_NODE_TESTS)
    for line in refused:  # each refused for the reason onnxruntime would refuse it
        assert UNLOADABLE_NODE_TESTS[line.split(":")[0]] in line, line

