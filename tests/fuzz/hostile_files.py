"""Builders of hostile input files, one catalogue per format (used by the fuzz suite).

Each builder writes into ``folder`` and returns the path to give the verb. Outside-the-folder decoys live
in ``folder.parent / "outside"`` so a test can assert they were never opened.
"""
from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import numpy as np

SHAPE = (1, 1, 28, 28)  # the bundled tinycnn's input


def decoy(folder: Path) -> Path:
    outside = folder.parent / "outside"
    outside.mkdir(exist_ok=True)
    path = outside / "secret.npy"
    if not path.exists():
        np.save(path, np.zeros(SHAPE, np.float32))
    return path


# ----- .npy ---------------------------------------------------------------------------------------
def _huge_header(path: Path) -> None:
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (10**12,)})


NPY = {
    "empty": lambda p: p.write_bytes(b""),
    "garbage": lambda p: p.write_bytes(b"\x93NUMPY garbage"),
    "huge-header": _huge_header,
    "object": lambda p: np.save(p, np.array([{"a": 1}], dtype=object), allow_pickle=True),
    "complex": lambda p: np.save(p, np.zeros(SHAPE, np.complex64)),
    "strings": lambda p: np.save(p, np.array(["x"] * 4)),
    "nan": lambda p: np.save(p, np.full(SHAPE, np.nan, np.float32)),
    "inf": lambda p: np.save(p, np.full(SHAPE, np.inf, np.float32)),
    "fifo": lambda p: os.mkfifo(p),
    "device": lambda p: p.symlink_to("/dev/zero"),
    "folder": lambda p: p.mkdir(),
}


def npy(folder: Path, case: str) -> Path:
    path = folder / f"{case}.npy"
    NPY[case](path)
    return path


# ----- calibration folders (manifest.json) --------------------------------------------------------
def _manifest(folder: Path, doc, raw: bytes | None = None) -> Path:
    calib = folder / "calib"
    calib.mkdir()
    np.save(calib / "s0.npy", np.zeros(SHAPE, np.float32))
    (calib / "manifest.json").write_bytes(raw if raw is not None else json.dumps(doc).encode())
    return calib


def _symlinked(folder: Path) -> Path:
    calib = _manifest(folder, {"samples": [{"file": "link.npy", "label": 0}]})
    (calib / "link.npy").symlink_to(decoy(folder))
    return calib


def _nan_sample(folder: Path) -> Path:
    calib = _manifest(folder, {"samples": [{"file": "nan.npy", "label": 0}]})
    np.save(calib / "nan.npy", np.full(SHAPE, np.nan, np.float32))
    return calib


MANIFEST = {
    "invalid-json": lambda f: _manifest(f, None, raw=b"{not json"),
    "top-level-list": lambda f: _manifest(f, [{"file": "s0.npy"}]),
    "missing-file-key": lambda f: _manifest(f, {"samples": [{"label": 1}]}),
    "integer-path": lambda f: _manifest(f, {"samples": [{"file": 42}]}),
    "non-utf8": lambda f: _manifest(f, None, raw=b"\xff\xfe\x00{"),
    "empty-samples": lambda f: _manifest(f, {"samples": []}),
    "huge-label": lambda f: _manifest(f, {"samples": [{"file": "s0.npy", "label": 2**70}]}),
    "negative-label": lambda f: _manifest(f, {"samples": [{"file": "s0.npy", "label": -1}]}),
    "dotdot": lambda f: (decoy(f), _manifest(f, {"samples": [{"file": "../../outside/secret.npy"}]}))[1],
    "absolute": lambda f: _manifest(f, {"samples": [{"file": str(decoy(f))}]}),
    "etc-passwd": lambda f: _manifest(f, {"samples": [{"file": "/etc/passwd"}]}),
    "dev-zero": lambda f: _manifest(f, {"samples": [{"file": "/dev/zero"}]}),
    "symlink-out": _symlinked,
    "nan-sample": _nan_sample,
    "nan-literal": lambda f: _manifest(f, None, raw=b'{"samples": [{"file": "s0.npy", "label": NaN}]}'),
    "deep": lambda f: _manifest(f, None, raw=b"[" * 20000 + b"]" * 20000),  # RecursionError in json
}


def manifest(folder: Path, case: str) -> Path:
    return MANIFEST[case](folder)


# ----- .npz ---------------------------------------------------------------------------------------
def _bomb(path: Path) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        with zf.open("x.npy", "w", force_zip64=True) as f:
            np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (1 << 21,)})
            for _ in range(8):
                f.write(b"\0" * (1 << 20))


NPZ = {
    "not-zip": lambda p: p.write_bytes(b"PK but not really"),
    "object": lambda p: np.savez(p, x=np.array([None], dtype=object)),
    "strings": lambda p: np.savez(p, x=np.array(["a", "b"])),
    "wrong-rank": lambda p: np.savez(p, x=np.zeros((4, 28, 28), np.float32)),
    "wrong-shape": lambda p: np.savez(p, x=np.zeros((4, 3, 28, 28), np.float32)),
    "empty-x": lambda p: np.savez(p, x=np.zeros((0, 1, 28, 28), np.float32)),
    "no-x": lambda p: np.savez(p, images=np.zeros((1, 1, 28, 28), np.float32)),
    "nan-x": lambda p: np.savez(p, x=np.full((2, 1, 28, 28), np.nan, np.float32)),
    "labels-mismatch": lambda p: np.savez(p, x=np.zeros((8, 1, 28, 28), np.float32), y=np.zeros(1, np.int64)),
    "float-labels": lambda p: np.savez(p, x=np.zeros((2, 1, 28, 28), np.float32), y=np.zeros(2, np.float32)),
    "negative-labels": lambda p: np.savez(p, x=np.zeros((2, 1, 28, 28), np.float32), y=np.array([-1, 0])),
    "bomb": _bomb,
}


def npz(folder: Path, case: str) -> Path:
    path = folder / f"{case}.npz"
    NPZ[case](path)
    return path


# ----- preprocessing spec JSON --------------------------------------------------------------------
SPEC_BASE = {"color": "GRAY", "dtype": "float32", "layout": "NCHW", "resize": [28, 28], "scale": 1 / 255}
SPEC = {
    "mean-number": {"mean": 0.5, "std": [1.0]},
    "mean-string": {"mean": "x", "std": [1.0]},
    "pad-null": {"letterbox": [28, 28], "resize": None, "pad_value": None},
    "pad-string": {"letterbox": [28, 28], "resize": None, "pad_value": "x"},
    "scale-string": {"scale": "x"},
    "huge-resize": {"resize": [40000, 40000]},
    "resize-true": {"resize": True},
    "std-nan": "NaN",
    "unknown-field": {"colour": "RGB"},
    "not-object": [],
}


def spec(folder: Path, case: str) -> Path:
    path = folder / f"{case}.json"
    change = SPEC[case]
    if change == "NaN":
        path.write_text(json.dumps({**SPEC_BASE, "mean": [0.5], "std": [1.0]}).replace('"std": [1.0]', '"std": [NaN]'))
    elif isinstance(change, list):
        path.write_text(json.dumps(change))
    else:
        path.write_text(json.dumps({**SPEC_BASE, **change}))
    return path


# ----- target TOML ---------------------------------------------------------------------------------
def _target_text() -> str:
    from npuready.targets.load import DATA_DIR

    return (DATA_DIR / "edge-10.toml").read_text(encoding="utf-8").replace('name = "edge-10"', 'name = "{name}"')


TARGET = {
    "activations-string": lambda t: t.replace("[activations]\n", 'activations = "fused"\n[old_activations]\n', 1),
    "clock-inf": lambda t: t.replace("clock_mhz = 1250", "clock_mhz = inf"),
    "clock-nan": lambda t: t.replace("clock_mhz = 1250", "clock_mhz = nan"),
    "dram-nan": lambda t: t.replace("dram_gbps = 25.6", "dram_gbps = nan"),
    "non-utf8": lambda t: "\udcff",
    "not-toml": lambda t: "this is [not toml",
}


def target(folder: Path, case: str) -> Path:
    path = folder / f"{case}.toml"
    if case == "non-utf8":
        path.write_bytes(b"name = \"x\"\n\xff\xfe")
    else:
        path.write_text(TARGET[case](_target_text()).replace("{name}", case), encoding="utf-8")
    return path
