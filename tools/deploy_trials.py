"""Registry trials with real `npuready deploy` processes (too slow for the test suite; run once, report).

    python tools/deploy_trials.py [--trials 10] [--concurrent 8] [--work DIR] [--mounts]

1. concurrency: per trial, N deploys of the zoo model tinycnn under N names started at once into one fresh
   registry; counts entries present and entries whose every artefact hash matches the index;
2. crash: a re-deploy of an existing name with another model, SIGKILLed at each checkpoint of
   ``npuready.deploy.faults.STAGES``; records whether the index names the old or the new model, whether
   every hash matches, and what the next deploy leaves over;
3. with ``--mounts`` (root only): a registry on a tiny tmpfs (full disk) and on a read-only tmpfs; records
   exit code and stderr.

Calibration inputs: the committed Fashion-MNIST subset (train split) in the zoo's input contract.
Prints one JSON document.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "generator"))

from npuready.deploy import faults  # noqa: E402
from npuready.deploy.registry import Registry  # noqa: E402


def calib_folder(folder: Path, n: int = 40) -> Path:
    import numpy as np

    from npuready.quant.inputs import load_inputs

    data = load_inputs("fashion-mnist:train", n)
    for i, (x, y) in enumerate(zip(data.x, data.labels)):
        (folder / str(int(y))).mkdir(parents=True, exist_ok=True)
        np.save(folder / str(int(y)) / f"{i:03d}.npy", x[None])
    return folder


def deploy_cmd(model: Path, calib: Path, registry: Path, name: str) -> list[str]:
    return [sys.executable, "-m", "npuready.cli", "deploy", str(model), "--calib", str(calib), "--registry",
            str(registry), "--name", name, "--calib-images", "16", "--parity-images", "24"]


def env(kill_at: str | None = None) -> dict[str, str]:
    e = {**os.environ, "PYTHONPATH": str(ROOT / "generator")}
    e.pop(faults.ENV, None)
    if kill_at:
        e[faults.ENV] = kill_at
    return e


def consistent(reg: Registry) -> tuple[int, int, list[str]]:
    """(entries, entries whose every file exists with the indexed hash, problems)."""
    problems = reg.audit()
    bad = {p.split(" ")[0] for p in problems if not p.startswith("leftover")}
    models = reg.read()["models"]
    return len(models), sum(f"{m['name']}/{m['target']}" not in bad for m in models), problems


def concurrency(work: Path, calib: Path, model: Path, trials: int, n: int) -> list[dict]:
    rows = []
    for t in range(trials):
        reg = work / f"concurrent{t}"
        procs = [subprocess.Popen(deploy_cmd(model, calib, reg, f"m{i}"), env=env(), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE) for i in range(n)]
        codes = [p.wait() for p in procs]
        entries, good, problems = consistent(Registry(reg))
        rows.append({"trial": t, "exit_codes": codes, "entries": entries, "hash_matches": good,
                     "problems": problems})
        print(f"trial {t}: exit {codes}, {entries} entries, {good} hash-true", file=sys.stderr)
    return rows


def crashes(work: Path, calib: Path, model: Path, other: Path) -> list[dict]:
    from npuready.experiments.context import sha256_file

    rows = []
    for stage in faults.STAGES:
        reg = work / f"crash_{stage}"
        subprocess.run(deploy_cmd(model, calib, reg, "m"), env=env(), check=True, capture_output=True)
        old = Registry(reg).lookup("m", "edge-10")["model_sha256"]
        killed = subprocess.run(deploy_cmd(other, calib, reg, "m"), env=env(stage), capture_output=True)
        entry = Registry(reg).lookup("m", "edge-10")
        entries, good, problems = consistent(Registry(reg))
        state = ("old" if entry["model_sha256"] == old else "new" if entry["model_sha256"] == sha256_file(other)
                 else "neither")
        after = subprocess.run(deploy_cmd(model, calib, reg, "m2"), env=env(), capture_output=True)
        rows.append({"stage": stage, "exit_code": killed.returncode, "killed": killed.returncode == -signal.SIGKILL,
                     "entry": state, "hash_matches": good == entries, "leftovers_after_crash": len(problems),
                     "next_deploy_exit": after.returncode, "leftovers_after_next_deploy": len(Registry(reg).audit())})
        print(f"kill at {stage}: {rows[-1]}", file=sys.stderr)
    return rows


def mounts(work: Path, calib: Path, model: Path) -> list[dict]:
    rows = []
    for label, opts in (("full disk (tmpfs 64 KiB)", "size=64k"), ("read-only tmpfs", "size=1m,ro")):
        mnt = work / label.split()[0]
        mnt.mkdir()
        if subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(mnt)]).returncode:
            rows.append({"case": label, "skipped": "mount failed"})
            continue
        try:
            r = subprocess.run(deploy_cmd(model, calib, mnt / "reg", "m"), env=env(), capture_output=True, text=True)
            rows.append({"case": label, "exit_code": r.returncode, "stderr": r.stderr.strip().splitlines(),
                         "left_in_registry": sorted(p.relative_to(mnt).as_posix() for p in mnt.rglob("*"))})
        finally:
            subprocess.run(["umount", str(mnt)])
        print(f"{label}: {rows[-1]}", file=sys.stderr)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--concurrent", type=int, default=8)
    ap.add_argument("--work", help="scratch folder (default: a new temporary folder)")
    ap.add_argument("--mounts", action="store_true", help="also try a full and a read-only tmpfs (root only)")
    args = ap.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="deploy_trials_"))
    work.mkdir(parents=True, exist_ok=True)
    calib = calib_folder(work / "calib")
    model = ROOT / "zoo" / "tinycnn.onnx"
    other = work / "other.onnx"
    shutil.copyfile(ROOT / "zoo" / "resnet20.onnx", other)
    doc = {"concurrency": concurrency(work, calib, model, args.trials, args.concurrent),
           "crash": crashes(work, calib, model, other)}
    if args.mounts:
        doc["mounts"] = mounts(work, calib, model)
    print(json.dumps(doc, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
