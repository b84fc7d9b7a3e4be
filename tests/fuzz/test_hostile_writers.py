"""Every writer against what is not a regular file (issue 31): a character device made with ``mknod`` in the test's
temporary folder (a /dev/null twin, never the system's) given as each verb's output file or folder, or sitting in
the folder under the name the verb would write. Each run exits 2 with one stderr line naming npuready, the device
is still a device, and the refusal comes before the work: within 10 s of the process's CPU time per case (the
work itself — probing every operator, quantising, measuring sensitivity — takes longer), except the site, whose
page paths are known only once it is built (it checks them all before it writes the first).

Policy (``npuready.atomic``): a target that exists and is not a regular file is refused, never replaced; a symlink
is written through to the regular file it ends at; ``-o -`` (and a path that is this process's stdout) writes to
stdout. Folder outputs (``report --out``, ``export --out``, ``--extract``, ``--registry``, ``site --out``) refuse
a device or file in their place and a device under a name they would write.
"""
from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest
from PIL import Image

from npuready.cli import main
from npuready.paths import zoo_dir

MODEL = str(zoo_dir() / "tinycnn.onnx")
CPU_BUDGET_S = 10.0  # per case: refusing takes about a second of CPU
BUILT_FIRST = {"site --out DIR/index.html": 120.0}  # the site's file list exists only after its build


def _device(path: Path) -> Path:
    if os.geteuid() != 0:
        pytest.skip("mknod of a character device needs root")
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return path


def _device_in(folder: Path, name: str) -> Path:
    folder.mkdir()
    _device(folder / name)
    return folder


def _photos(tmp: Path) -> Path:
    folder = tmp / "photos"
    folder.mkdir()
    Image.new("RGB", (32, 32), (90, 40, 160)).save(folder / "a.png")
    return folder


# (case id, argv builder given the test's folder; {dev} is the device made there)
CASES = {
    "lint -o": lambda t: ["lint", MODEL, "--isolated", "-o", _device(t / "null")],
    "lint --write-baseline": lambda t: ["lint", MODEL, "--isolated", "--write-baseline", _device(t / "null")],
    "cost -o": lambda t: ["cost", MODEL, "-o", _device(t / "null")],
    "partition -o": lambda t: ["partition", MODEL, "-o", _device(t / "null")],
    "partition --extract DEV": lambda t: ["partition", MODEL, "--extract", _device(t / "null")],
    "partition --extract DIR/manifest.json": lambda t: ["partition", MODEL, "--extract",
                                                        _device_in(t / "parts", "manifest.json")],
    "intake -o": lambda t: ["intake", MODEL, "-o", _device(t / "null")],
    "verify -o": lambda t: ["verify", MODEL, MODEL, "--images", "2", "-o", _device(t / "null")],
    "sensitivity -o": lambda t: ["sensitivity", MODEL, "--images", "2", "-o", _device(t / "null")],
    "probes --out": lambda t: ["probes", "--out", _device(t / "null")],
    "probes --docs": lambda t: ["probes", "--docs", _device(t / "null")],
    "quantize --out": lambda t: ["quantize", MODEL, "--images", "2", "--out", _device(t / "null")],
    "models export --out": lambda t: ["models", "export", "resnet18", "--out", _device(t / "null")],
    "preprocess apply --output": lambda t: ["preprocess", "apply", str(_photos(t) / "a.png"), "--preset",
                                            "classification", "--output", _device(t / "null")],
    "preprocess fuse --output": lambda t: ["preprocess", "fuse", MODEL, "--preset", "classification",
                                           "--output", _device(t / "null")],
    "report --out DEV": lambda t: ["report", MODEL, "--stages", "lint", "--out", _device(t / "null")],
    "report --out DIR/result.json": lambda t: ["report", MODEL, "--stages", "lint", "--out",
                                               _device_in(t / "r", "result.json")],
    "report --out DIR/report.html": lambda t: ["report", MODEL, "--stages", "lint", "--out",
                                               _device_in(t / "r", "report.html")],
    "export --out": lambda t: ["export", MODEL, "--calib", _photos(t), "--preset", "classification",
                               "--out", _device(t / "null")],
    "deploy --registry DEV": lambda t: ["deploy", MODEL, "--calib", _photos(t), "--preset", "classification",
                                        "--registry", _device(t / "null")],
    "deploy --registry DIR/index.json": lambda t: ["deploy", MODEL, "--calib", _photos(t), "--preset",
                                                   "classification", "--registry", _device_in(t / "reg", "index.json")],
    "site --out DEV": lambda t: ["site", "--out", _device(t / "null")],
    "site --out DIR/index.html": lambda t: ["site", "--out", _device_in(t / "site", "index.html")],
}


def _devices(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if stat.S_ISCHR(os.lstat(p).st_mode))


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_writer_refuses_a_device_node_before_the_work(case, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a writer's default folders (registry/, site/) land here if it ignored the option
    argv = [str(a) for a in CASES[case](tmp_path)]
    before = _devices(tmp_path)
    t0 = time.process_time()
    try:
        rc = main(argv)
    except SystemExit as exc:
        rc = exc.code
    spent = time.process_time() - t0
    out, err = capsys.readouterr()
    assert rc == 2, (rc, err)
    assert err.count("\n") == 1 and err.startswith("npuready ") and "Traceback" not in err, err
    assert ("device" in err or "not a folder" in err or "not a regular" in err), err
    assert _devices(tmp_path) == before  # the device is still there and still a device
    assert spent < BUILT_FIRST.get(case, CPU_BUDGET_S), f"{case}: {spent:.1f} s of CPU before the refusal"


def test_the_site_writes_nothing_when_its_out_is_refused(tmp_path, capsys):
    dev = _device(tmp_path / "null")
    assert main(["site", "--out", str(dev)]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


def test_a_registry_index_that_is_a_fifo_or_too_big_is_never_read(tmp_path, capsys, monkeypatch):
    """A FIFO would hang the read, a /dev/zero twin or a huge file would fill memory: refused from stat alone."""
    from npuready.deploy.registry import Registry
    from npuready.errors import InputError
    from npuready.inputs import budget

    fifo_root = tmp_path / "fifo"
    fifo_root.mkdir()
    os.mkfifo(fifo_root / "index.json")
    with pytest.raises(InputError, match="index.json: is a FIFO, not a registry index file"):
        Registry(fifo_root).read()
    big_root = tmp_path / "big"
    big_root.mkdir()
    with open(big_root / "index.json", "wb") as f:
        f.truncate(budget.MAX_REGISTRY_INDEX_BYTES + 1)
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: pytest.fail(f"read {self}"))
    with pytest.raises(InputError, match="above the 268,435,456-byte budget for a registry index"):
        Registry(big_root).read()


@pytest.mark.parametrize("kind", ["fifo", "symlink"])
def test_report_out_holding_a_report_name_that_is_not_a_regular_file_is_refused(kind, tmp_path, capsys):
    out = tmp_path / "r"
    out.mkdir()
    (tmp_path / "elsewhere.json").write_text("{}")
    os.mkfifo(out / "result.json") if kind == "fifo" else (out / "result.json").symlink_to(tmp_path / "elsewhere.json")
    assert main(["report", MODEL, "--stages", "lint", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    what = "a FIFO" if kind == "fifo" else "a symlink"
    assert err.count("\n") == 1 and f"result.json in it is {what}, not the file an earlier report writes" in err
    assert (tmp_path / "elsewhere.json").read_text() == "{}"


def test_a_deeply_nested_registry_index_is_one_line(tmp_path, capsys):
    registry = tmp_path / "reg"
    registry.mkdir()
    (registry / "index.json").write_text("[" * 20000 + "]" * 20000)
    rc = main(["deploy", MODEL, "--calib", str(_photos(tmp_path)), "--preset", "classification",
               "--registry", str(registry), "--name", "m"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "nested more than 64 levels deep" in err, err


@pytest.mark.parametrize("argv", [["lint", MODEL, "--isolated", "-o", "a\x00b.txt"],
                                  ["quantize", MODEL, "--out", "q\x00.onnx"]])
def test_an_output_path_with_a_nul_byte_is_one_line(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "an output path cannot hold a NUL byte" in err and "\x00" not in err, err


@pytest.mark.parametrize("argv", [["lint", "a\x00.onnx"], ["report", MODEL, "--out", "r\x00"],
                                  ["partition", MODEL, "--extract", "x\x00"], ["site", "--out", "s\x00"]])
def test_a_nul_byte_in_any_path_is_exit_2_with_one_line(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "NUL byte" in err and "internal error" not in err, err
    assert list(tmp_path.iterdir()) == []


def test_peak_memory_of_this_module_stays_bounded():
    """Refusals come from stat, not from work: the process's high-water mark stays under 3 GiB."""
    import resource

    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 < 3072
