"""``thirdparty.every_verb``: the seven verbs as a user runs them on a trained model, and how a row is judged."""
from __future__ import annotations

from pathlib import Path

import pytest

from npuready.errors import InputError
from npuready.thirdparty import catalog
from npuready.thirdparty.every_verb import VERBS, VerbRun, commands, every_verb


def _run(verb, code, gate="", tb=False):
    return VerbRun(verb, code, "last", tb, gate, 1.0)


def test_a_row_is_acceptable_on_exit_0_or_a_gate_verdict_on_exit_1():
    assert _run("verify", 0).acceptable()
    assert _run("verify", 1, "GATE CAUSE: the detection metric drops at /model.22/Concat_25").acceptable()
    assert not _run("verify", 1).acceptable()  # exit 1 without a gate verdict
    assert not _run("deploy", 2).acceptable()  # never exit 2
    assert not _run("cost", 0, tb=True).acceptable()  # never a traceback
    assert not _run("lint", 1).acceptable()  # the done-when: exit 1 only with a gate verdict


def test_the_commands_carry_the_models_preset_pins_task_and_observer(tmp_path):
    m = catalog.get("ppocr-rec")
    cmds = commands(m, Path("m.onnx"), tmp_path, tmp_path, "edge-10", 8)
    assert set(cmds) == set(VERBS)
    for verb in ("lint", "partition", "cost", "report", "quantize", "verify", "deploy"):
        assert "x=1,3,48,320" in cmds[verb], verb
    for verb in ("report", "quantize", "verify", "deploy"):
        assert cmds[verb][cmds[verb].index("--preset") + 1] == "paddleocr-rec"
    for verb in ("report", "verify", "deploy"):
        assert cmds[verb][cmds[verb].index("--task") + 1] == "sequence"
    assert cmds["quantize"][cmds["quantize"].index("--method") + 1] == m.observer
    assert "--litert" in cmds["verify"] and cmds["verify"][cmds["verify"].index("--engine") + 1] == "cpp"


def _fetched(name):
    try:
        return catalog.get(name).path()
    except InputError as exc:  # no network to PyPI, or no torch for MTCNN
        pytest.skip(f"{name}: {exc}")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ppocr-cls", "mtcnn-rnet"])
def test_every_verb_exits_0_or_with_a_gate_verdict(name):
    _fetched(name)
    runs = every_verb(name, n=8)
    bad = {v: (r.exit_code, r.last_line) for v, r in runs.items() if not r.acceptable()}
    assert not bad, bad
    assert set(runs) == set(VERBS)
