"""Registry transactions: concurrent writers lose nothing, a SIGKILL at every stage leaves the old or the new
entry (never a mix), the next writer recovers what a crash left, and an unwritable registry is exit 2 with
one line naming the file."""
from __future__ import annotations

import errno
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from deploy_models import calib_folder, classifier, save
from npuready.deploy import faults
from npuready.deploy.registry import Registry
from npuready.errors import InputError
from npuready.experiments.context import sha256_file

FORK = multiprocessing.get_context("fork")
REGISTRY_STAGES = ("staging", "staged", "moved", "indexed")


def _artefacts(folder: Path, tag: str) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for role, suffix in (("float", ".onnx"), ("qdq", ".onnx"), ("integer", ".npz")):
        files[role] = folder / f"{role}{suffix}"
        files[role].write_bytes(f"{tag}:{role}:".encode() * 1000)
    return files


def _accept(root: str, name: str, folder: str, tag: str, kill_at: str | None = None) -> None:
    if kill_at:
        os.environ[faults.ENV] = kill_at
    Registry(Path(root)).accept(name, "edge-10", _artefacts(Path(folder), tag), {"tag": tag}, f"deploy {tag}")


def test_eight_concurrent_writers_ten_times_lose_nothing(tmp_path):
    for trial in range(10):
        root = tmp_path / f"reg{trial}"
        procs = [FORK.Process(target=_accept,
                              args=(str(root), f"m{i}", str(tmp_path / f"src{trial}_{i}"), f"{trial}.{i}"))
                 for i in range(8)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
        assert [p.exitcode for p in procs] == [0] * 8
        reg = Registry(root)
        assert [m["name"] for m in reg.read()["models"]] == [f"m{i}" for i in range(8)]
        assert reg.audit() == []


@pytest.mark.parametrize("stage", REGISTRY_STAGES)
def test_sigkill_at_each_stage_leaves_old_or_new_entry(tmp_path, stage):
    root = tmp_path / "reg"
    reg = Registry(root)
    old = reg.accept("m", "edge-10", _artefacts(tmp_path / "old", "old"), {"tag": "old"}, "deploy old")
    p = FORK.Process(target=_accept, args=(str(root), "m", str(tmp_path / "new"), "new", stage))
    p.start()
    p.join(60)
    assert p.exitcode == -signal.SIGKILL
    entry = reg.lookup("m", "edge-10")
    new_sha = sha256_file(tmp_path / "new" / "float.onnx")
    # the commit point is the index write: killed before it the old entry stands, after it the new one
    assert entry["model_sha256"] == (new_sha if stage == "indexed" else old["model_sha256"])
    consistency = [p for p in reg.audit() if not p.startswith("leftover")]
    assert consistency == []
    reg.reject("other", "edge-10", "lint", "r", "0" * 64, "cmd")  # the next writer recovers the leftovers
    assert reg.audit() == []
    assert sorted(p.name for p in (root / "m" / "edge-10").iterdir()) == [entry["version"]]


def test_concurrent_cli_deploys_and_kill_during_a_deploy(tmp_path):
    """4 real `npuready deploy` processes into one registry (8 × 10 trials: tools/deploy_trials.py, too slow for
    the suite on a loaded 2-core box), then a re-deploy SIGKILLed after its artefacts moved into place and
    before the index: every entry present, every hash matches."""
    calib = calib_folder(tmp_path / "calib", classifier("good"), n=10)
    models = [save(classifier(f"m{i}"), tmp_path / f"m{i}.onnx") for i in range(4)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop(faults.ENV, None)
    cmd = [sys.executable, "-m", "npuready.cli", "deploy", "--calib", str(calib), "--registry", str(tmp_path / "reg"),
           "--calib-images", "4", "--parity-images", "6"]
    procs = [subprocess.Popen([*cmd, str(m)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
             for m in models]
    assert [p.wait(300) for p in procs] == [0] * 4, [p.stderr.read() for p in procs]
    reg = Registry(tmp_path / "reg")
    assert [m["name"] for m in reg.read()["models"]] == [f"m{i}" for i in range(4)] and reg.audit() == []
    before = reg.lookup("m0", "edge-10")
    shutil.copyfile(tmp_path / "m1.onnx", tmp_path / "m0.onnx")  # a different model under the same name
    killed = subprocess.run([*cmd, str(tmp_path / "m0.onnx")], env={**env, faults.ENV: "moved"}, capture_output=True)
    assert killed.returncode == -signal.SIGKILL
    assert reg.lookup("m0", "edge-10") == before
    assert [p for p in reg.audit() if not p.startswith("leftover")] == []


def _fail_with(code: int):
    def fail(src, dst, *a, **k):
        raise OSError(code, os.strerror(code), str(dst))
    return fail


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_full_disk_or_read_only_is_one_line_naming_the_file(tmp_path, monkeypatch, code):
    reg = Registry(tmp_path / "reg")
    old = reg.accept("m", "edge-10", _artefacts(tmp_path / "old", "old"), {}, "deploy old")
    monkeypatch.setattr(shutil, "copyfile", _fail_with(code))
    with pytest.raises(InputError) as exc:
        reg.accept("m", "edge-10", _artefacts(tmp_path / "new", "new"), {}, "deploy new")
    msg = str(exc.value)
    assert msg.startswith(str(tmp_path / "reg" / ".staging")) and msg.count("\n") == 0
    assert f"/float.onnx: cannot store the artefact ({os.strerror(code)}); the registry was not changed" in msg
    monkeypatch.undo()
    assert reg.lookup("m", "edge-10") == old and reg.audit() == []


def test_index_write_failure_keeps_the_old_entry(tmp_path, monkeypatch):
    import npuready.deploy.registry as registry

    reg = Registry(tmp_path / "reg")
    old = reg.accept("m", "edge-10", _artefacts(tmp_path / "old", "old"), {}, "deploy old")

    def full(path, doc):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
    monkeypatch.setattr(registry, "write_json", full)
    with pytest.raises(InputError, match=r"index.json: cannot write the registry index \(No space left on device\)"):
        reg.accept("m", "edge-10", _artefacts(tmp_path / "new", "new"), {}, "deploy new")
    monkeypatch.undo()
    assert reg.lookup("m", "edge-10") == old and reg.audit() == []


def test_read_only_registry_folder_is_exit_2(tmp_path, monkeypatch, capsys):
    from npuready.cli import main

    ro = tmp_path / "ro"
    ro.mkdir()
    real_mkdir = Path.mkdir

    def mkdir(self, *a, **k):
        if ro in (self, *self.parents):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))
        return real_mkdir(self, *a, **k)
    monkeypatch.setattr(Path, "mkdir", mkdir)
    model = save(classifier("good"), tmp_path / "good.onnx")
    calib = calib_folder(tmp_path / "calib", classifier("good"), n=6)
    assert main(["deploy", str(model), "--calib", str(calib), "--registry", str(ro / "reg"),
                 "--calib-images", "3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"npuready deploy: error: {ro / 'reg' / '.staging'}: cannot create the folder (Read-only file "
                   "system); the registry was not changed — free space or make the registry writable and deploy again"]
