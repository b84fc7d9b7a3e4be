"""Third-party log lines during quantisation are captured; what matters is re-stated in npuready's words."""
import logging
import subprocess
import sys

from npuready.paths import repo_root
from npuready.quant.quiet import captured_logs, forward


def test_root_logger_records_are_collected_and_the_handlers_restored(caplog):
    caplog.set_level(logging.WARNING)  # the root logger's level as in a fresh process (other tests raise it)
    root = logging.getLogger()
    before = root.handlers[:]
    with captured_logs() as records:
        logging.warning("Please consider pre-processing before quantization. See https://example")
        logging.info("not collected")
    assert [r.getMessage() for r in records] == ["Please consider pre-processing before quantization. See https://example"]
    assert root.handlers == before


def test_forward_drops_followed_advice_and_restates_the_rest(caplog):
    caplog.set_level(logging.WARNING)
    with captured_logs() as records:
        logging.warning("Please consider to run pre-processing before quantization. Refer to example: x")
        logging.warning("Calibration cache at %s was\nproduced elsewhere", "c.json")
    with caplog.at_level(logging.WARNING, logger="npuready.quant"):
        forward(records, "onnxruntime quantization")
    assert [(r.name, r.getMessage()) for r in caplog.records] == [
        ("npuready.quant", "onnxruntime quantization: Calibration cache at c.json was produced elsewhere")]


def test_quantize_of_the_zoo_model_prints_no_third_party_log_line(tmp_path):
    out = tmp_path / "q.onnx"
    proc = subprocess.run([sys.executable, "-m", "npuready.cli", "quantize", str(repo_root() / "zoo" / "tinycnn.onnx"),
                           "--out", str(out), "--images", "8"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == f"wrote {out} (method minmax, 8 calibration images from fashion-mnist:train)\n"
