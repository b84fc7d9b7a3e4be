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


def test_node_test_models_lint_without_exception(node_models):
    assert len(node_models) > 1000
    refused, counts = _lint_all(node_models)
    print(f"\nnode test models: {len(node_models)}, {len(refused)} refused as unusable; models per rule {counts}")
    print("\n".join(refused))
    assert refused == []
