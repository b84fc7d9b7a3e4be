"""Every verb, run as a user would, on one trained third-party model: the issue-25 done-when matrix.

Per model: real images of the kind it reads (``thirdparty.inputs``) are written as PNG files into a
folder, and the seven verbs run as separate ``python -m npuready.cli`` processes with the model's own
preset, pins (``--input-shape``) and declared task: ``lint``, ``partition``, ``cost``, ``report --calib``,
``quantize``, ``verify --engine cpp --litert`` and ``deploy``. Each row keeps the exit code, the last
line of stderr (or of stdout when stderr is empty) and whether a Python traceback was printed. The
done-when holds for a row when it exits 0, or exits 1 with a task-metric gate verdict and a named cause
(``GATE CAUSE:`` or a gate line naming the metric); never exit 2, never a traceback.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

VERBS = ("lint", "partition", "cost", "report", "quantize", "verify", "deploy")


@dataclass(frozen=True)
class VerbRun:
    verb: str
    exit_code: int
    last_line: str
    traceback: bool
    gate_line: str  # the line stating the gate verdict (verify/deploy/report), "" when none
    seconds: float

    def acceptable(self) -> bool:
        if self.traceback or self.exit_code not in (0, 1):
            return False
        return self.exit_code == 0 or bool(self.gate_line)

    def to_dict(self) -> dict[str, Any]:
        return {"exit": self.exit_code, "last_line": self.last_line, "traceback": self.traceback,
                "gate_line": self.gate_line, "seconds": round(self.seconds, 1), "acceptable": self.acceptable()}


def _gate_line(text: str) -> str:
    for line in reversed(text.splitlines()):
        s = line.strip()
        if s.startswith("GATE CAUSE:") or s.startswith("GATE") or "gate" in s.lower() and (
                "fail" in s.lower() or "pass" in s.lower() or "blocked" in s.lower()):
            return s
    return ""


def write_images(model, folder: Path, n: int, seed: int = 0) -> Path:
    """``n`` real images of the kind ``model`` reads, as PNG files in ``folder`` (unlabelled)."""
    from PIL import Image

    import onnx

    from .inputs import KINDS

    first = onnx.load(model.path(), load_external_data=False).graph.input[0]
    shape = model.pins.get(first.name) or tuple(d.dim_value for d in first.type.tensor_type.shape.dim)
    folder.mkdir(parents=True, exist_ok=True)
    for i, img in enumerate(KINDS[model.inputs](n, shape[3] / shape[2], seed)):
        Image.fromarray(img).save(folder / f"{model.name}-{i:03d}.png")
    return folder


def commands(model, onnx: Path, images: Path, work: Path, target: str, n: int) -> dict[str, list[str]]:
    pins = [a for k, v in model.pins.items() for a in ("--input-shape", f"{k}={','.join(map(str, v))}")]
    pre = ["--preset", model.preset]
    q = work / "q.onnx"
    half = max(1, n // 2)
    return {
        "lint": ["lint", str(onnx), "--target", target, *pins],
        "partition": ["partition", str(onnx), "--target", target, *pins],
        "cost": ["cost", str(onnx), "--target", target, *pins],
        "report": ["report", str(onnx), "--target", target, "--calib", str(images), *pre, "--images", str(n),
                   "--task", model.task, "--out", str(work / "report"), *pins],
        "quantize": ["quantize", str(onnx), "--calib", str(images), *pre, "--images", str(n),
                     "--method", model.observer, "--out", str(q), *pins],
        "verify": ["verify", str(onnx), str(q), "--data", str(images), *pre, "--images", str(n),
                   "--engine", "cpp", "--litert", "--task", model.task, *pins],
        "deploy": ["deploy", str(onnx), "--target", target, "--calib", str(images), *pre,
                   "--calib-images", str(half), "--parity-images", str(n - half), "--task", model.task,
                   "--engine", "cpp", "--registry", str(work / "registry"), "--name", model.name, *pins],
    }


def run_verb(verb: str, argv: list[str], timeout: float = 900.0) -> VerbRun:
    import time

    t0 = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "npuready.cli", *argv], capture_output=True, text=True,
                              timeout=timeout)
        code, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        code, out, err = -1, "", f"timed out after {timeout:.0f} s"
    lines = [s for s in (err.strip() or out.strip()).splitlines() if s.strip()]
    return VerbRun(verb, code, lines[-1].strip() if lines else "", "Traceback (most recent call last)" in err,
                   _gate_line(out + "\n" + err), time.perf_counter() - t0)


def every_verb(name: str, target: str = "edge-10", n: int = 8, seed: int = 0,
               verbs: tuple[str, ...] = VERBS) -> dict[str, VerbRun]:
    """Run ``verbs`` on the catalog model ``name`` in a scratch folder; one ``VerbRun`` per verb."""
    from .catalog import get

    model = get(name)
    onnx = model.path()
    with tempfile.TemporaryDirectory(prefix=f"npuready-{name}-") as tmp:
        work = Path(tmp)
        images = write_images(model, work / "images", n, seed)
        cmds = commands(model, onnx, images, work, target, n)
        runs = {v: run_verb(v, cmds[v]) for v in verbs}
    # the scratch folder and the cache are this machine's: name the files only
    clean = {str(work) + "/": "", str(onnx.parent) + "/": ""}

    def tidy(text: str) -> str:
        for a, b in clean.items():
            text = text.replace(a, b)
        return text

    return {v: replace(r, last_line=tidy(r.last_line), gate_line=tidy(r.gate_line)) for v, r in runs.items()}


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    from .catalog import MODELS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="*", default=list(MODELS))
    ap.add_argument("--target", default="edge-10")
    ap.add_argument("--images", type=int, default=8)
    ap.add_argument("--verbs", default=",".join(VERBS))
    a = ap.parse_args(argv)
    matrix = {}
    for name in a.models:
        runs = every_verb(name, a.target, a.images, verbs=tuple(a.verbs.split(",")))
        matrix[name] = {v: r.to_dict() for v, r in runs.items()}
        print(json.dumps({name: matrix[name]}, indent=1), flush=True)
    return 0 if all(r["acceptable"] for m in matrix.values() for r in m.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
