"""One stderr line on every exit 2 (issue 31): each verb with typical bad input exits 2 and prints exactly one
stderr line naming npuready, no traceback and no warning — also when a library warns on the way (PIL's
DecompressionBombWarning, onnx or onnxruntime messages) and when the report's input is refused only after the
model was read (a bad --calib, the second of two --target, a model whose metadata the report shows).

Runs in-process through ``npuready.cli.main`` with ``capfd``, which sees what C++ libraries write to fd 2 too.
Every file is tiny, so the module is bounded in time and memory like the rest of ``tests/fuzz``.
"""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from PIL import Image

from npuready.cli import main
from npuready.paths import zoo_dir

MODEL = zoo_dir() / "tinycnn.onnx"  # input (1, 1, 28, 28)


def _photos(root):
    folder = root / "photos"
    folder.mkdir(exist_ok=True)
    Image.new("RGB", (64, 48), (120, 30, 200)).save(folder / "a.png")
    return folder


def _with_metadata(root):
    model = onnx.load(MODEL)
    onnx.helper.set_model_props(model, {"imgsz": "[28, 28]", "task": "classify", "mean": "[0.5]"})
    path = root / "meta.onnx"
    onnx.save(model, path)
    return path


def _wrong_shape_npz(root):
    path = root / "wrong.npz"
    np.savez(path, x=np.zeros((4, 3, 9, 9), np.float32))
    return path


def _garbage(root):
    path = root / "garbage.onnx"
    path.write_bytes(b"\x08\x07not a model" * 50)
    return path


def _foreign_folder(root):
    out = root / "busy"
    out.mkdir(exist_ok=True)
    (out / "keep.txt").write_text("x")
    return out



def _external(root, location: str, offset: str):
    """A MatMul whose weight is external data at ``location`` (a 64-byte w.bin sits beside it) and ``offset``."""
    w = onnx.numpy_helper.from_array(np.ones((4, 4), np.float32), "w")
    graph = onnx.helper.make_graph(
        [onnx.helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")], "ext",
        [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 4])],
        [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 4])], [w])
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 17)])
    t = model.graph.initializer[0]
    t.data_location = onnx.TensorProto.EXTERNAL
    t.ClearField("raw_data")
    for key, value in (("location", location), ("offset", offset), ("length", "64")):
        entry = t.external_data.add()
        entry.key, entry.value = key, value
    (root / "w.bin").write_bytes(bytes(64))
    path = root / "ext.onnx"
    onnx.save(model, path)
    return path


# (id, argv with {tmp}, {model}, and builders named in braces)
CASES = [
    ("lint-missing", ["lint", "{tmp}/no.onnx"]),
    ("lint-garbage", ["lint", "{garbage}"]),
    ("lint-target", ["lint", "{model}", "--target", "nope"]),
    ("lint-baseline", ["lint", "{model}", "--isolated", "--baseline", "{tmp}/no.json"]),
    ("partition-missing", ["partition", "{tmp}/no.onnx"]),
    ("partition-target", ["partition", "{model}", "--target", "nope"]),
    ("partition-shape", ["partition", "{model}", "--input-shape", "input=a,b"]),
    ("cost-garbage", ["cost", "{garbage}"]),
    ("cost-target", ["cost", "{model}", "--target", "nope.toml"]),
    ("cost-batch", ["cost", "{model}", "--batch", "0"]),
    ("report-missing", ["report", "{tmp}/no.onnx", "--out", "{tmp}/r"]),
    ("report-calib", ["report", "{model}", "--calib", "{tmp}/no-calib", "--out", "{tmp}/r"]),
    ("report-calib-shape", ["report", "{model}", "--calib", "{wrong_npz}", "--out", "{tmp}/r"]),
    ("report-second-target", ["report", "{model}", "-t", "edge-10", "-t", "nope", "--out", "{tmp}/r"]),
    ("report-preset", ["report", "{model}", "--calib", "{photos}", "--preset", "nope", "--out", "{tmp}/r"]),
    ("report-photos-no-preset", ["report", "{model}", "--calib", "{photos}", "--out", "{tmp}/r"]),
    ("report-metadata-bad-calib", ["report", "{meta}", "--calib", "{tmp}/no-calib", "--out", "{tmp}/r"]),
    ("report-task", ["report", "{model}", "--task", "dance", "--out", "{tmp}/r"]),
    ("report-budget", ["report", "{model}", "--max-report-nodes", "0", "--out", "{tmp}/r"]),
    ("report-foreign-out", ["report", "{model}", "--out", "{foreign}"]),
    ("quantize-calib", ["quantize", "{model}", "--calibration", "{tmp}/no-calib", "--out", "{tmp}/q.onnx"]),
    ("quantize-missing", ["quantize", "{tmp}/no.onnx", "--calibration", "fashion-mnist:test", "--out", "{tmp}/q.onnx"]),
    ("verify-missing", ["verify", "{model}", "{tmp}/no.onnx"]),
    ("verify-data", ["verify", "{model}", "{model}", "--data", "{tmp}/no-calib"]),
    ("deploy-calib", ["deploy", "{model}", "--calib", "{tmp}/no-calib", "--registry", "{tmp}/reg"]),
    ("deploy-target", ["deploy", "{model}", "--calib", "{photos}", "--target", "nope", "--registry", "{tmp}/reg"]),
    ("export-calib", ["export", "{model}", "--calib", "{tmp}/no-calib", "--out", "{tmp}/x"]),
    ("export-foreign-out", ["export", "{model}", "--calib", "{photos}", "--out", "{foreign}"]),
    ("preprocess-show", ["preprocess", "show", "nope"]),
    ("preprocess-inspect", ["preprocess", "inspect", "{garbage}"]),
    ("preprocess-apply-missing", ["preprocess", "apply", "{tmp}/no.png", "--preset", "yolov8",
                                  "--output", "{tmp}/x.npy"]),
    *[(f"{verb}-external-nul", [verb, "{nul_external}", *extra]) for verb, extra in
      (("lint", []), ("cost", []), ("partition", []), ("intake", []), ("report", ["--out", "{tmp}/r"]))],
    ("lint-external-offset", ["lint", "{bad_offset}"]),
    ("run-unknown", ["run", "no-such-experiment"]),
    ("run-compare", ["run", "probes", "--compare", "{tmp}/no-folder"]),
]

BUILDERS = {"garbage": _garbage, "photos": _photos, "meta": _with_metadata, "wrong_npz": _wrong_shape_npz,
            "foreign": _foreign_folder, "nul_external": lambda root: _external(root, "w\x00.bin", "0"),
            "bad_offset": lambda root: _external(root, "w.bin", "abc")}


def _argv(argv, tmp):
    values = {"tmp": str(tmp), "model": str(MODEL)}
    for key, build in BUILDERS.items():
        if any("{" + key + "}" in a for a in argv):
            values[key] = str(build(tmp))
    return [a.format(**values) for a in argv]


def _assert_one_line_exit_2(argv, capfd):
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse usage errors
        rc = exc.code
    out, err = capfd.readouterr()
    assert rc == 2, (rc, err)
    assert err.count("\n") == 1 and err.startswith("npuready ") and "Traceback" not in err, err
    assert "Warning" not in err, err
    return err


@pytest.mark.parametrize("argv", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_exits_2_with_exactly_one_stderr_line(argv, tmp_path, capfd):
    _assert_one_line_exit_2(_argv(argv, tmp_path), capfd)
    assert not (tmp_path / "r").exists() and not (tmp_path / "q.onnx").exists()


def _cli_with_small_pixel_limit(argv: list[str]):
    """The CLI in a fresh process (warnings go to its real stderr, not pytest's recorder) with PIL's
    MAX_IMAGE_PIXELS at 1,000, so a 40x40 image stands for a 90-megapixel one."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p.endswith("generator"))}
    code = ("import sys, PIL.Image as I; I.MAX_IMAGE_PIXELS = 1000; from npuready.cli import main; "
            "sys.exit(main(sys.argv[1:]))")
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=300, env=env)


def test_a_decompression_bomb_warning_does_not_add_lines_to_an_exit_2(tmp_path):
    """PIL warns (two lines) above MAX_IMAGE_PIXELS; the run then fails on its --output: one line in all."""
    Image.new("RGB", (40, 40), (10, 20, 30)).save(tmp_path / "big.png")
    (tmp_path / "folder.npy").mkdir()
    proc = _cli_with_small_pixel_limit(["preprocess", "apply", str(tmp_path / "big.png"), "--preset", "imagenet-bgr",
                                        "--output", str(tmp_path / "folder.npy")])
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("npuready preprocess: error: ") and "folder.npy" in proc.stderr


def test_a_warning_on_a_run_that_succeeds_is_one_line(tmp_path):
    Image.new("RGB", (40, 40), (10, 20, 30)).save(tmp_path / "big.png")
    proc = _cli_with_small_pixel_limit(["preprocess", "apply", str(tmp_path / "big.png"), "--preset", "imagenet-bgr",
                                        "--output", str(tmp_path / "x.npy")])
    assert proc.returncode == 0 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("npuready preprocess: warning: DecompressionBombWarning: Image size (1600 pixels)")
