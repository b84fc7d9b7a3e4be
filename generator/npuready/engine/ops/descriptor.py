"""What an integer op module declares about itself, once: ``DESCRIPTOR = OpDescriptor(...)`` in
``engine/ops/<op>.py``. ``engine.ops.OPS``, ``KERNELS`` and ``EMITS`` are built from the descriptors, and so are
``cpp_engine.SIGNATURES`` for the ops that declare a typed parameter schema and their C++ symbol.

A parameter schema is a frozen dataclass whose fields are the keys of the op's ``IntOp.params``, in the order
``build`` writes them. Its ``int`` fields, in that order, are the C++ kernel's scalar arguments: the argument
list is ``CppKernel.head`` (buffers and sizes), the schema's ints, then ``CppKernel.tail`` (rounding, output).
So the C++ signature and the call in ``cpp_engine`` follow the schema instead of re-spelling it by position.
The TFLite lowering is declared on the TFLite side (``tflite.ops.registry``): tflite sits above engine, and an
engine module naming a TFLite function would import upward.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

#: C++ argument types a descriptor may name; ``cpp_engine`` maps each to its ctypes type
CTYPES = ("i8*", "i16*", "i32*", "i64*", "f32*", "int", "int64", "float")
#: ``field(metadata=HOST_ONLY)``: an int parameter the NumPy kernel reads and the C++ kernel does not take
HOST_ONLY = {"cpp": False}


def int_fields(schema: type) -> tuple[str, ...]:
    """The schema's ``int`` fields in declaration order (the C++ kernel's scalar arguments), HOST_ONLY ones
    left out."""
    return tuple(f.name for f in fields(schema) if f.type in (int, "int") and f.metadata.get("cpp", True))


def scalar_args(schema: type, params: Mapping[str, Any]) -> list[int]:
    """The values of ``params`` (an ``IntOp.params``) for the schema's int fields, in C++ argument order."""
    return [int(params[name]) for name in int_fields(schema)]


def as_params(value: Any) -> dict[str, Any]:
    """A schema instance as the ``IntOp.params`` mapping (field order kept: the saved graph's header)."""
    return {f.name: getattr(value, f.name) for f in fields(value)}


@dataclass(frozen=True)
class CppKernel:
    """The C++ twin's entry point: ``symbol``, with the C types of the arguments around the schema's ints."""

    symbol: str
    head: tuple[str, ...]
    tail: tuple[str, ...] = ("int", "i8*")  # the rounding code, the output buffer

    def argtypes(self, schema: type) -> tuple[str, ...]:
        return self.head + ("int",) * len(int_fields(schema)) + self.tail


@dataclass(frozen=True)
class OpDescriptor:
    """``onnx_types``: the ONNX op types this module's ``build`` exports (``OPS``); ``kinds``: the integer-graph
    op kinds its ``run`` executes (``KERNELS``); ``emits``: (ONNX op type, kind) pairs ``build`` may emit through
    another module (``EMITS``); ``params`` and ``cpp``: the typed parameter schema and the C++ kernel, where
    declared (the other ops' signatures are still listed by hand in ``cpp_engine``)."""

    onnx_types: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    emits: tuple[tuple[str, str], ...] = ()
    params: type | None = None
    cpp: CppKernel | None = None

    def __post_init__(self):
        if self.cpp is not None:
            if self.params is None:
                raise ValueError(f"{self.cpp.symbol}: a C++ kernel needs the parameter schema its order comes from")
            unknown = [t for t in self.cpp.head + self.cpp.tail if t not in CTYPES]
            if unknown:
                raise ValueError(f"{self.cpp.symbol}: C types {unknown} are not among {CTYPES}")
