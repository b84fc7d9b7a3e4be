"""Builders of unusable model files, shared by the loader tests and the CLI tests."""
from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Callable

import numpy as np
import onnx
from onnx import TensorProto

from npuready.lint import examples as ex


def _good_bytes() -> bytes:
    return ex.conv_relu().SerializeToString()


def _external(folder: Path, location: str, *, write: bytes | None = None, length: int | None = None) -> Path:
    """conv_relu whose weight 'w' lives in external file ``location`` (relative to the model's folder)."""
    m = ex.conv_relu()
    w = next(t for t in m.graph.initializer if t.name == "w")
    raw = np.asarray(onnx.numpy_helper.to_array(w), np.float32).tobytes()
    w.ClearField("float_data")
    w.ClearField("raw_data")
    w.data_location = TensorProto.EXTERNAL
    for key, value in (("location", location), ("offset", "0"), ("length", str(length or len(raw)))):
        entry = w.external_data.add()
        entry.key, entry.value = key, value
    if write is not None:
        target = Path(location) if os.path.isabs(location) else folder / location
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(raw if write == b"full" else write)
    path = folder / "model.onnx"
    path.write_bytes(m.SerializeToString())
    return path


def empty(d: Path) -> Path:
    (d / "m.onnx").write_bytes(b"")
    return d / "m.onnx"


def truncated(d: Path) -> Path:
    data = _good_bytes()
    (d / "m.onnx").write_bytes(data[: len(data) // 2])
    return d / "m.onnx"


def garbage(d: Path) -> Path:
    (d / "m.onnx").write_bytes(np.random.default_rng(0).integers(0, 256, 4096, dtype=np.uint8).tobytes())
    return d / "m.onnx"


def png(d: Path) -> Path:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")

    ihdr = (1).to_bytes(4, "big") * 2 + bytes([8, 0, 0, 0, 0])
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00\x00"))
            + chunk(b"IEND", b""))
    (d / "image.onnx").write_bytes(data)
    return d / "image.onnx"


def json_file(d: Path) -> Path:
    (d / "m.onnx").write_text(json.dumps({"graph": {"node": []}, "ir_version": 8}))
    return d / "m.onnx"


def no_graph(d: Path) -> Path:
    m = onnx.ModelProto(ir_version=8)
    m.opset_import.add(domain="", version=17)
    (d / "m.onnx").write_bytes(m.SerializeToString())
    return d / "m.onnx"


def absolute_external(d: Path) -> Path:
    return _external(d, str((d / "abs" / "w.bin").resolve()), write=b"full")


def escaping_external(d: Path) -> Path:
    inner = d / "models"
    inner.mkdir()
    return _external(inner, "../w.bin", write=b"full")


def symlink_external(d: Path) -> Path:
    outside = d / "outside"
    outside.mkdir()
    (outside / "w.bin").write_bytes(b"\0" * 64 * 27 * 4)
    inner = d / "models"
    inner.mkdir()
    (inner / "w.bin").symlink_to(outside / "w.bin")
    return _external(inner, "w.bin")


def missing_external(d: Path) -> Path:
    return _external(d, "w.bin")


def short_external(d: Path) -> Path:
    return _external(d, "w.bin", write=b"\0" * 100)


def absurd_shape(d: Path) -> Path:
    m = ex.conv_relu()
    dims = m.graph.input[0].type.tensor_type.shape.dim
    for dim, value in zip(dims, (1000, 1000, 1000, 1000000)):
        dim.dim_value = value
    (d / "m.onnx").write_bytes(m.SerializeToString())
    return d / "m.onnx"


BAD: dict[str, Callable[[Path], Path]] = {
    "empty": empty, "truncated": truncated, "garbage": garbage, "png": png, "json": json_file, "no_graph": no_graph,
    "absolute_external": absolute_external, "escaping_external": escaping_external,
    "symlink_external": symlink_external, "missing_external": missing_external, "short_external": short_external,
    "absurd_shape": absurd_shape,
}
