"""Shape pins: fix the graph inputs' dims (``--input-shape NAME=D0,D1,…``, ``--batch N``) before any analysis.

Pinning rewrites only the declared dims of the graph inputs (symbolic or unknown ones become the given
sizes) on a copy of the model; shape resolution then runs on the pinned copy. A dim the model already
fixes cannot be changed (its Reshape targets and value_info were computed for that size): asking for a
different size is refused, naming the input, the dim and the size the model fixes.
"""
from __future__ import annotations

from dataclasses import dataclass

import onnx

from npuready.errors import InputError


@dataclass(frozen=True)
class ShapePins:
    """Input shapes to fix: ``shapes`` maps an input name to its full shape; ``batch`` fixes dim 0 of
    every input whose dim 0 is not static (an input named in ``shapes`` takes that shape instead)."""

    shapes: tuple[tuple[str, tuple[int, ...]], ...] = ()
    batch: int | None = None

    def __bool__(self) -> bool:
        return bool(self.shapes) or self.batch is not None

    def describe(self) -> str:
        parts = [f"--input-shape {n}={','.join(map(str, dims))}" for n, dims in self.shapes]
        if self.batch is not None:
            parts.insert(0, f"--batch {self.batch}")
        return " ".join(parts)


def parse_input_shape(text: str) -> tuple[str, tuple[int, ...]]:
    """``NAME=D0,D1,…`` → (name, dims); dims must be positive integers."""
    name, sep, dims_text = text.rpartition("=")
    if not sep or not name or not dims_text.strip():
        raise InputError(f"--input-shape '{text}': expected NAME=D0,D1,... (e.g. --input-shape image=1,3,224,224)")
    dims = []
    for part in dims_text.split(","):
        part = part.strip()
        try:
            value = int(part)
        except ValueError:
            raise InputError(f"--input-shape '{text}': dim '{part}' is not an integer; give positive sizes "
                             f"(e.g. {name}=1,3,224,224)") from None
        if value < 1:
            raise InputError(f"--input-shape '{text}': dim {value} is not positive; every size must be 1 or more")
        dims.append(value)
    return name, tuple(dims)


def check_batch(batch: int | None) -> None:
    if batch is not None and batch < 1:
        raise InputError(f"--batch {batch}: must be 1 or more")


def apply_pins(model: onnx.ModelProto, pins: ShapePins, label: str) -> onnx.ModelProto:
    """A copy of ``model`` whose graph inputs carry the pinned dims; raises ``InputError`` on a bad pin."""
    check_batch(pins.batch)
    if not pins:
        return model
    inits = {t.name for t in model.graph.initializer} | {t.values.name for t in model.graph.sparse_initializer}
    inputs = {vi.name: vi for vi in model.graph.input if vi.name not in inits}
    wanted = dict(pins.shapes)
    for name in wanted:
        if name not in inputs:
            names = ", ".join(f"'{n}'" for n in inputs) or "none"
            raise InputError(f"{label}: --input-shape names input '{name}', which the model does not have "
                             f"(its inputs: {names})")
    out = onnx.ModelProto()
    out.CopyFrom(model)
    symbols: dict[str, int] = {}  # dim name -> the size it was pinned to
    for vi in out.graph.input:
        if vi.name not in inputs:
            continue
        tt = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
        if vi.name in wanted:
            _pin_full(tt, vi.name, wanted[vi.name], label, symbols)
        elif pins.batch is not None and tt is not None and tt.HasField("shape") and len(tt.shape.dim) > 0:
            _pin_dim(tt.shape.dim[0], vi.name, 0, pins.batch, label, "--batch", symbols)
    _substitute(out.graph, symbols)
    return out


def _substitute(graph: onnx.GraphProto, symbols: dict[str, int]) -> None:
    """The same dim name means the same size: outputs and value_info that use a pinned name get its size."""
    if not symbols:
        return
    for vi in list(graph.input) + list(graph.output) + list(graph.value_info):
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape"):
            for d in vi.type.tensor_type.shape.dim:
                if not d.HasField("dim_value") and d.dim_param in symbols:
                    size = symbols[d.dim_param]
                    d.Clear()
                    d.dim_value = size


def _pin_full(tt, name: str, dims: tuple[int, ...], label: str, symbols: dict[str, int]) -> None:
    if tt is None:
        raise InputError(f"{label}: input '{name}' is not a tensor; --input-shape applies to tensor inputs only")
    if tt.HasField("shape"):
        rank = len(tt.shape.dim)
        if rank != len(dims):
            current = ",".join(_dim_text(d) for d in tt.shape.dim)
            raise InputError(f"{label}: --input-shape {name}={','.join(map(str, dims))} gives {len(dims)} dims but "
                             f"input '{name}' has rank {rank} [{current}]; give {rank} sizes")
        for axis, (d, size) in enumerate(zip(tt.shape.dim, dims)):
            _pin_dim(d, name, axis, size, label, "--input-shape", symbols)
        return
    for size in dims:  # unknown rank: the pin declares it
        tt.shape.dim.add().dim_value = size


def _pin_dim(d: onnx.TensorShapeProto.Dimension, name: str, axis: int, size: int, label: str, flag: str,
             symbols: dict[str, int]) -> None:
    if d.HasField("dim_value") and d.dim_value > 0:
        if d.dim_value != size:
            raise InputError(f"{label}: input '{name}' dim {axis} is fixed at {d.dim_value} by the model; {flag} "
                             f"asks for {size}; pin only symbolic dims (or re-export the model)")
        return
    if d.dim_param:
        if symbols.setdefault(d.dim_param, size) != size:
            raise InputError(f"{label}: input '{name}' dim {axis} is '{d.dim_param}', already pinned to "
                             f"{symbols[d.dim_param]} on another input; {flag} asks for {size}")
    d.Clear()
    d.dim_value = size


def _dim_text(d: onnx.TensorShapeProto.Dimension) -> str:
    if d.HasField("dim_value"):
        return str(d.dim_value)
    return d.dim_param or "?"
