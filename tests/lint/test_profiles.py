"""--profile target (default) vs portable, through the CLI and the Python API."""
from __future__ import annotations

import json

import onnx
import pytest

from npuready.cli import main
from npuready.errors import InputError
from npuready.lint import lint
from npuready.lint.policy_cases import _norm


@pytest.fixture
def layernorm(tmp_path):
    path = tmp_path / "ln.onnx"
    onnx.save(_norm("LayerNormalization").model, path)
    return str(path)


def test_layernorm_is_info_on_edge_10_and_an_error_in_the_portable_profile(layernorm, capsys):
    assert main(["lint", layernorm, "-t", "edge-10", "-f", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["options"]["profile"] == "target"
    (f,) = data["findings"]
    assert (f["rule"], f["severity"]) == ("R006", "INFO")
    assert "runs on edge-10 natively on the vector unit" in f["message"]
    assert main(["lint", layernorm, "-t", "edge-10", "--profile", "portable", "-f", "json"]) == 1
    (f,) = json.loads(capsys.readouterr().out)["findings"]
    assert f["severity"] == "ERROR" and f["evidence"]["profile"] == "portable"
    assert f["message"].endswith("but the portable profile forbids it")


def test_lowered_layernorm_is_a_warning_on_the_vela_mirror_and_host_is_an_error(layernorm, capsys):
    assert main(["lint", layernorm, "-t", "ethos-u55-128"]) == 0
    out = capsys.readouterr().out
    assert "WARN (recorded only)" in out and "via Vela's lowering" in out
    assert main(["lint", layernorm, "-t", "edge-10-nolut"]) == 1


def test_help_names_the_default_profile_and_why(capsys):
    with pytest.raises(SystemExit):
        main(["lint", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Profiles: 'target' (default)" in out and "'portable'" in out
    assert "a deployment is built for one target" in out


def test_unknown_profile_is_an_input_error(layernorm):
    with pytest.raises(InputError, match="profile 'strict': unknown; use one of target, portable"):
        lint(layernorm, profile="strict")
