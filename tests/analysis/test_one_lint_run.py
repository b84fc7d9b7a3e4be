"""One analysis pass: lint runs once per (model, target) however many stages read it (npuready.analysis)."""
import pytest

from npuready.lint import api as lint_api
from npuready.paths import zoo_dir


@pytest.fixture
def lint_runs(monkeypatch):
    calls = []
    real = lint_api.run_lint

    def counted(graph, target, *args, **kwargs):
        calls.append(target.name)
        return real(graph, target, *args, **kwargs)

    monkeypatch.setattr(lint_api, "run_lint", counted)
    return calls


MODEL = str(zoo_dir() / "resnet20.onnx")


def test_report_lints_each_target_once(lint_runs):
    from npuready.report.build import build_report
    from npuready.report.request import ReportRequest

    build_report(ReportRequest(model=MODEL, targets=("edge-10", "ethos-u55-128"), stages=("lint", "partition", "cost")))
    assert sorted(lint_runs) == ["edge-10", "ethos-u55-128"]


@pytest.mark.parametrize("verb", ["lint", "partition", "cost"])
def test_each_verb_lints_once(verb, lint_runs, capsys):
    from npuready.cli import main

    assert main([verb, MODEL, "--target", "ethos-u55-128"]) in (0, 1)
    assert lint_runs == ["ethos-u55-128"]


def test_analyse_with_every_stage_lints_once(lint_runs):
    from npuready.analysis import analyse
    from npuready.graph import load

    a = analyse(load(MODEL), "ethos-u55-128")
    assert a.plan is not None and a.cost is not None and lint_runs == ["ethos-u55-128"]


def test_the_counter_sees_a_stage_that_lints_on_its_own(lint_runs):
    """Control: the cost model called without a placement lints by itself, and the counter sees it."""
    from npuready.cost import estimate
    from npuready.graph import load
    from npuready.targets import load_target

    estimate(load(MODEL), load_target("ethos-u55-128"))
    assert lint_runs == ["ethos-u55-128"]
