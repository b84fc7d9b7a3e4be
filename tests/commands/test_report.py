import json
import subprocess
import sys

from npuready.cli import main
from npuready.paths import zoo_dir


def test_report_writes_result_json_and_one_line(tmp_path, capsys):
    assert main(["report", str(zoo_dir() / "tinycnn.onnx"), "--target", "edge-10", "--stages", "lint,partition,cost",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "sanity checks ok" in out
    doc = json.loads((tmp_path / "result.json").read_text())
    assert doc["model"]["targets"] == ["edge-10"] and doc["graph"]["node_count"] == 10


def test_missing_model_exits_2_with_one_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "npuready.cli", "report", str(tmp_path / "no.onnx"), "--out",
                           str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and "no such ONNX file" in proc.stderr


def test_bad_stage_exits_2(tmp_path, capsys):
    assert main(["report", str(zoo_dir() / "tinycnn.onnx"), "--stages", "lint,simulate", "--out", str(tmp_path)]) == 2
    assert "unknown" in capsys.readouterr().err
