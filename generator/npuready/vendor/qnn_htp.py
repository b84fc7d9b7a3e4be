"""Qualcomm's HTP backend (onnxruntime-qnn 2.7.0, x86 build) as a check of a QDQ model.

The backend ships inside the ``onnxruntime-qnn`` wheel (``libQnnHtp.so``, an HTP simulator for x86):
onnxruntime's QNN execution provider compiles the nodes it accepts into QNN graphs and leaves the rest
to its CPU provider. ``run`` drives ``qnn_worker.py`` in the isolated environment (``make qnn-env``
→ ``.venv-qnn``; ``NPUREADY_QNN_VENV`` overrides), and returns where each node ran (from the verbose
log) and the outputs of HTP and of onnxruntime's CPU provider on the same QDQ model and inputs.
Numbers are measured on this machine's CPU through Qualcomm's simulator, not on a Snapdragon; the
per-node cycle profile it can print is host timing and is not used.
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
from npuready.vendor.qnn_log import QnnPlacement, parse

WORKER = Path(__file__).with_name("qnn_worker.py")
ENV_VAR = "NPUREADY_QNN_VENV"


def venv() -> Path:
    return Path(os.environ.get(ENV_VAR) or repo_root() / ".venv-qnn")


def available() -> bool:
    return (venv() / "bin" / "python").is_file()


@dataclass(frozen=True)
class HtpRun:
    placement: QnnPlacement
    htp: tuple[np.ndarray, ...]    # per model output, N × …
    cpu: tuple[np.ndarray, ...]    # onnxruntime CPU provider on the same QDQ model
    build_s: float
    run_s: float
    versions: str

    def agreement(self) -> dict:
        """First output: top-1 agreement HTP vs CPU (over its last axis) and the largest absolute difference."""
        a, b = self.htp[0].reshape(len(self.htp[0]), -1), self.cpu[0].reshape(len(self.cpu[0]), -1)
        return {"inputs": int(len(a)), "top1_agreement_htp_vs_cpu": float(np.mean(a.argmax(1) == b.argmax(1))),
                "max_abs_diff_htp_vs_cpu": float(np.max(np.abs(a - b), initial=0.0)),
                "outputs_identical": bool(all(np.array_equal(x, y) for x, y in zip(self.htp, self.cpu)))}


def run(qdq_model: "str | Path", x: np.ndarray, timeout_s: float = 1800) -> HtpRun:
    """Run ``x`` (N × input shape, float32; batch 1 each) through HTP and CPU. Raises InputError."""
    python = venv() / "bin" / "python"
    if not python.is_file():
        raise InputError(f"Qualcomm's HTP backend is not installed ({venv()} missing): run `make qnn-env`")
    with tempfile.TemporaryDirectory(prefix="npuready-qnn-") as tmp:
        inputs, outputs = Path(tmp) / "inputs.npz", Path(tmp) / "outputs.npz"
        np.savez(inputs, x=np.asarray(x, np.float32))
        proc = subprocess.run([str(python), str(WORKER), str(qdq_model), str(inputs), str(outputs)],
                              capture_output=True, text=True, timeout=timeout_s)
        if proc.returncode != 0 or not outputs.is_file():
            tail = [line for line in proc.stderr.splitlines() if line.strip()][-1:] or ["no output"]
            raise InputError(f"HTP backend on {Path(qdq_model).name} failed (exit {proc.returncode}): "
                             f"{tail[0][-300:]}")
        with np.load(outputs) as z:
            n = sum(1 for k in z.files if k.startswith("htp_"))
            htp = tuple(z[f"htp_{i}"] for i in range(n))
            cpu = tuple(z[f"cpu_{i}"] for i in range(n))
            build_s, run_s = (float(v) for v in z["seconds"])
    versions = (proc.stdout.strip().splitlines() or [""])[-1]
    return HtpRun(parse(proc.stderr), htp, cpu, build_s, run_s, versions)
