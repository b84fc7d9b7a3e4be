"""Rockchip's RKNN-Toolkit2 (2.5.0) as a check of npuready's verdicts on a float model.

RKNN-Toolkit2 quantises and compiles an ONNX model offline for a Rockchip NPU (RK3588, RK3566, RV1106,
…), writes the ``.rknn`` file its runtime loads, and runs the INT8 build on a simulator. Its pins
(numpy ≤ 1.26.4, onnx ≤ 1.18, torch ≤ 2.4) clash with the project's, so it lives in ``.venv-rknn``
(``make rknn-env``; ``NPUREADY_RKNN_VENV`` overrides) and ``run`` drives ``rknn_worker.py`` there.
Per layer, librknnc says whether it runs on the NPU or the CPU and estimates its cycles (its own
model: ``eval_perf`` needs a device, which is not here); the simulator's outputs are measured here.
"""
from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from npuready.errors import InputError
from npuready.paths import repo_root
from npuready.vendor.rknn_log import RknnLayer, parse

WORKER = Path(__file__).with_name("rknn_worker.py")
ENV_VAR = "NPUREADY_RKNN_VENV"
PLATFORMS = ("rk3588", "rk3576", "rk3566", "rk3568", "rk3562", "rv1106", "rv1103", "rk2118")


def venv() -> Path:
    return Path(os.environ.get(ENV_VAR) or repo_root() / ".venv-rknn")


def available() -> bool:
    return (venv() / "bin" / "python").is_file()


@dataclass(frozen=True)
class RknnRun:
    platform: str
    layers: tuple[RknnLayer, ...]
    outputs: tuple[np.ndarray, ...]   # the simulator's, per model output (N × …)
    rknn_bytes: bytes                 # the compiled file
    version: str

    def summary(self) -> dict:
        npu = [x for x in self.layers if x.target == "NPU"]
        return {"platform": self.platform, "version": self.version, "layers": len(self.layers),
                "npu_layers": len(npu),
                "cpu_layers": [{"op_type": x.op_type, "name": x.full_name} for x in self.layers
                               if x.target == "CPU" and x.op_type not in ("InputOperator", "OutputOperator")],
                "total_cycles": sum(x.total_cycles for x in self.layers),
                "npu_cycles": sum(x.npu_cycles for x in self.layers),
                "ddr_cycles": sum(x.ddr_cycles for x in self.layers)}


def run(model: "str | Path", calibration: np.ndarray, test: np.ndarray, platform: str = "rk3588",
        timeout_s: float = 3600) -> RknnRun:
    """Quantise ``model`` on ``calibration``, compile for ``platform``, run ``test`` on the simulator."""
    if platform not in PLATFORMS:
        raise InputError(f"--rknn {platform!r}: not an RKNN-Toolkit2 platform; choose from {', '.join(PLATFORMS)}")
    python = venv() / "bin" / "python"
    if not python.is_file():
        raise InputError(f"RKNN-Toolkit2 is not installed ({venv()} missing): run `make rknn-env`")
    with tempfile.TemporaryDirectory(prefix="npuready-rknn-") as tmp:
        t = Path(tmp)
        np.savez(t / "calib.npz", x=np.asarray(calibration, np.float32))
        np.savez(t / "test.npz", x=np.asarray(test, np.float32))
        cmd = [str(python), str(WORKER), str(Path(model).resolve()), str(t / "calib.npz"), str(t / "test.npz"),
               platform, str(t / "model.rknn"), str(t / "outputs.npz")]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, cwd=tmp)
        log = proc.stdout + "\n" + proc.stderr
        if proc.returncode != 0 or not (t / "outputs.npz").is_file():
            errors = [line for line in log.splitlines() if line.startswith("E ") or "Error" in line]
            last = (errors or [line for line in log.splitlines() if line.strip()] or ["no output"])[-1]
            raise InputError(f"RKNN-Toolkit2 on {Path(model).name} for {platform} failed "
                             f"(exit {proc.returncode}): {last.strip()[-300:]}")
        with np.load(t / "outputs.npz") as z:
            outs = tuple(z[f"out_{i}"] for i in range(len(z.files)))
        data = (t / "model.rknn").read_bytes()
    version = next((line for line in reversed(proc.stdout.splitlines()) if line.startswith("rknn-toolkit2")), "")
    return RknnRun(platform, parse(log), outs, data, version)
