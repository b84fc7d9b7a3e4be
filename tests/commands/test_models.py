import subprocess
import sys

from npuready.cli import main
from npuready.models.library.recipes import RECIPES


def test_list_prints_one_recipe_per_line(capsys):
    assert main(["models", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in lines] == list(RECIPES)
    assert lines[0].split("\t") == ["resnet18", "timm", "resnet18", "1x3x224x224", "classify"]


def test_unknown_name_exits_2_with_one_line():
    proc = subprocess.run([sys.executable, "-m", "npuready.cli", "models", "export", "nope", "--out", "x.onnx"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and "unknown library model 'nope'" in proc.stderr


def test_models_without_action_prints_help_and_exits_2(capsys):
    assert main(["models"]) == 2
    assert "RANDOM-INITIALISED" in capsys.readouterr().out
