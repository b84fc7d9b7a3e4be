"""The one safe ONNX loader every command uses.

Refuses, with one line naming the file and the problem (``InputError`` → exit code 2):
missing/empty/truncated/garbage files, models without a graph, external data whose
location is absolute, leaves the model's folder or points past the end of its file, and
declared shapes with absurd element counts. It never allocates from declared shapes and
never reads outside the model's folder. The importer (``npuready.importer``) then rewrites a copy into
the canonical form (dims written as -1 read as dynamic, BatchNormalization folded, …). Shape pins
(``--input-shape``, ``--batch``; ``npuready.graph.pins``) fix the graph inputs' dims first; then shapes are
resolved (``npuready.graph.resolve``: onnx inference,
then onnxruntime's symbolic inference), non-strictly: when onnx's inference fails the un-inferred model is
still returned (``Graph.inference_error`` says why) — except when a compile-time value is above the budget
of ``npuready.graph.constant_budget``, which is bad input. Sparse initializers are read as dense ones
(``npuready.graph.sparse``).
"""
from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import onnx
from google.protobuf.message import DecodeError

from npuready.errors import InputError
from npuready.graph.constant_budget import ConstantBudgetExceeded
from npuready.graph.pins import ShapePins, apply_pins
from npuready.graph.resolve import resolve
from npuready.graph.sparse import densify
from npuready.graph.view import Graph
from npuready.importer import Imported, canonicalise

MAX_ELEMENTS = 1 << 31  # per tensor; 2^31 float32 elements = 8 GiB
MAX_FILE_BYTES = 4 << 30


def load(source: "str | os.PathLike | onnx.ModelProto | Graph", *, infer_shapes: bool = True,
         pins: ShapePins | None = None, canonical: bool = True) -> Graph:
    """Load a model file (or wrap an in-memory ModelProto) into a shape-resolved ``Graph``.

    The importer (``npuready.importer.canonicalise``) rewrites a copy into the form every stage reads
    (``Graph.imported`` lists each rewrite; ``canonical=False`` skips it); then ``pins`` fix the graph
    inputs' dims. A ``Graph`` is returned as it is: it was imported and pinned when it was loaded."""
    if isinstance(source, Graph):
        return source
    pins = pins or ShapePins()
    if isinstance(source, onnx.ModelProto):
        label, path, model = "<in-memory model>", None, source
        _check_structure(source, label)
        source = densify(_copy(source), label) if _has_sparse(source) else source
        _check_runnable(source, label)
        _check_declared_sizes(source, label)
        _check_external_refs_in_memory(source, label)
        _run_checker(source, label)
        model = source  # the densified copy when it had sparse initializers
    else:
        path = Path(source)
        label, model = str(path), read_model(path)
    imported = Imported()
    if canonical:
        model, imported = canonicalise(model)
    graph = _infer(apply_pins(model, pins, label), path, infer_shapes)
    graph.pinned = pins.describe()
    graph.imported = imported
    return graph


def read_model(path: Path) -> onnx.ModelProto:
    """Parse and validate the file; load external data only from inside its folder."""
    label = str(path)
    if not path.exists():
        raise InputError(f"{label}: no such file")
    if path.is_dir():
        raise InputError(f"{label}: is a folder, expected an .onnx file")
    if not path.is_file():
        raise InputError(f"{label}: not a regular file, expected an .onnx file")
    try:
        size = path.stat().st_size
        if size == 0:
            raise InputError(f"{label}: empty file (0 bytes), not an ONNX model")
        if size > MAX_FILE_BYTES:
            raise InputError(f"{label}: file is {size} bytes, above the {MAX_FILE_BYTES}-byte limit; "
                             "store weights as external data")
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{label}: cannot read the file ({exc.strerror or _short(exc)})") from None
    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)
    except (DecodeError, ValueError, RuntimeError) as exc:
        raise InputError(f"{label}: not an ONNX model (protobuf parse failed: {_short(exc)}); "
                         "the file is truncated, corrupt or another format") from None
    _check_structure(model, label)
    # no sparse initializer to densify and no external data to load: the file's bytes are the model's, so the
    # checker reads them as they are instead of a fresh serialisation of the parsed copy
    pristine = not model.graph.sparse_initializer and next(_external_tensors(model), None) is None
    densify(model, label)
    _check_runnable(model, label)
    _check_declared_sizes(model, label)
    _load_external(model, path, label)  # before the checker, which would otherwise read external files itself
    _run_checker(data if pristine else model, label)
    return model


def _has_sparse(model: onnx.ModelProto) -> bool:
    return bool(model.graph.sparse_initializer) or any(
        (a.HasField("g") and a.g.sparse_initializer) or any(s.sparse_initializer for s in a.graphs)
        for n in model.graph.node for a in n.attribute)


def _copy(model: onnx.ModelProto) -> onnx.ModelProto:
    out = onnx.ModelProto()
    out.CopyFrom(model)
    return out


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return (text[:160] + "…") if len(text) > 160 else (text or type(exc).__name__)


def _check_structure(model: onnx.ModelProto, label: str) -> None:
    if not model.HasField("graph"):
        raise InputError(f"{label}: not an ONNX model (no graph); a ModelProto must contain a graph")
    if model.ir_version <= 0:
        raise InputError(f"{label}: not an ONNX model (ir_version missing); the file is truncated or another format")
    if not model.opset_import:
        raise InputError(f"{label}: model declares no opset_import; re-export it with an opset")
    g = model.graph
    if not g.node and not g.output:
        raise InputError(f"{label}: the graph has no nodes and no outputs")


MIN_OPSET = 6  # onnxruntime 1.32 has no kernels for most operators at opsets 1-5 (Relu(1): NOT_IMPLEMENTED)


def _check_runnable(model: onnx.ModelProto, label: str) -> None:
    """What onnxruntime refuses to load is unusable input, not an "ok" lint: an unsupported opset, a main
    graph without inputs, a node reading a value nothing defines, a cycle."""
    newest = onnx.defs.onnx_opset_version()
    for imp in model.opset_import:
        if imp.domain in ("", "ai.onnx") and not MIN_OPSET <= imp.version <= newest:
            raise InputError(f"{label}: opset {imp.version} of the default domain is outside {MIN_OPSET}..{newest}, "
                             "the range onnx and onnxruntime support; re-export with a supported opset (e.g. 17)")
    g = model.graph
    known = {i.name for i in g.input} | {t.name for t in g.initializer} | {t.values.name for t in g.sparse_initializer}
    constants = {t.name for t in g.initializer} | {t.values.name for t in g.sparse_initializer}
    if g.node and not [i for i in g.input if i.name not in constants]:
        raise InputError(f"{label}: the graph has no inputs (every value is a constant); export it with its image "
                         "input as a graph input")
    produced = {o for n in g.node for o in n.output if o}
    for n in g.node:
        for name in n.input:
            if name and name not in known and name not in produced:
                raise InputError(f"{label}: node '{n.name or n.op_type}' ({n.op_type}) reads '{name}', which no node, "
                                 "initializer or graph input defines; the model is incomplete")
    _check_acyclic(g, known, label)


def _check_acyclic(g: onnx.GraphProto, known: set[str], label: str) -> None:
    producer = {o: i for i, n in enumerate(g.node) for o in n.output if o}
    deps = [{producer[x] for x in n.input if x and x in producer and x not in known} for n in g.node]
    users: dict[int, list[int]] = {i: [] for i in range(len(g.node))}
    for i, d in enumerate(deps):
        for j in d:
            users[j].append(i)
    remaining = [len(d) for d in deps]
    ready = [i for i, r in enumerate(remaining) if r == 0]
    done = 0
    while ready:
        i = ready.pop()
        done += 1
        for u in users[i]:
            remaining[u] -= 1
            if remaining[u] == 0:
                ready.append(u)
    if done < len(g.node):
        stuck = next(n for i, n in enumerate(g.node) if remaining[i] > 0)
        raise InputError(f"{label}: the graph has a cycle through node '{stuck.name or stuck.op_type}' "
                         f"({stuck.op_type}); an ONNX graph must be acyclic")


def _run_checker(model: "onnx.ModelProto | bytes", label: str) -> None:
    try:
        onnx.checker.check_model(model, full_check=False)
    except onnx.checker.ValidationError as exc:
        first = _short(exc).split(" ==> ")[0]
        if any(marker in str(exc) for marker in _LINTABLE_CHECKER_ERRORS):
            return  # an op ONNX does not know: a lint finding (R008), not unusable input
        raise InputError(f"{label}: invalid ONNX model: {first}") from None
    except Exception as exc:  # checker failures on odd protos are still bad input
        raise InputError(f"{label}: invalid ONNX model: {_short(exc)}") from None


# Checker messages about operators ONNX does not know (R008 reports those nodes instead).
# Unsorted node lists are linted too: the Graph view sorts them (onnxruntime accepts them as well).
_LINTABLE_CHECKER_ERRORS = ("No Op registered for", "No opset import for domain", "must be topologically sorted")


def _graphs(g: onnx.GraphProto):
    yield g
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                yield from _graphs(a.g)
            elif a.type == onnx.AttributeProto.GRAPHS:
                for sub in a.graphs:
                    yield from _graphs(sub)


def _numel(dims) -> int:
    return math.prod(max(int(d), 0) for d in dims)


def _check_declared_sizes(model: onnx.ModelProto, label: str) -> None:
    for g in _graphs(model.graph):
        for t in g.initializer:
            if any(d < 0 for d in t.dims):
                raise InputError(f"{label}: initializer '{t.name}' has a negative dimension {list(t.dims)}")
            n = _numel(t.dims)
            if n > MAX_ELEMENTS:
                raise InputError(f"{label}: initializer '{t.name}' declares {n:.3g} elements (limit {MAX_ELEMENTS}); "
                                 "refusing to load")
        for n in g.node:
            for a in n.attribute:
                for t in ([a.t] if a.type == onnx.AttributeProto.TENSOR else list(a.tensors)):
                    if any(d < 0 for d in t.dims) or _numel(t.dims) > MAX_ELEMENTS:
                        raise InputError(f"{label}: node '{n.name or n.op_type}' attribute '{a.name}' declares a "
                                         f"tensor of shape {list(t.dims)} (limit {MAX_ELEMENTS} elements); "
                                         "refusing to load")
        for vi in list(g.input) + list(g.output) + list(g.value_info):
            if not vi.type.HasField("tensor_type") or not vi.type.tensor_type.HasField("shape"):
                continue
            # 0 when unset (symbolic/unknown); a negative dim is how Paddle2ONNX writes a dynamic one (the
            # importer, npuready.importer.dims, reads it as dynamic): only the positive dims count here
            dims = [d.dim_value for d in vi.type.tensor_type.shape.dim if d.dim_value > 0]
            n = math.prod(dims)
            if n > MAX_ELEMENTS:
                raise InputError(f"{label}: tensor '{vi.name}' declares shape {dims} = {n:.3g} elements "
                                 f"(limit {MAX_ELEMENTS}); refusing to load")


def _external_tensors(model: onnx.ModelProto):
    for g in _graphs(model.graph):
        for t in g.initializer:
            if t.data_location == onnx.TensorProto.EXTERNAL:
                yield t
        for n in g.node:
            for a in n.attribute:
                if a.type == onnx.AttributeProto.TENSOR and a.t.data_location == onnx.TensorProto.EXTERNAL:
                    yield a.t


def _check_external_refs_in_memory(model: onnx.ModelProto, label: str) -> None:
    """An in-memory model has no folder: external references cannot be resolved safely."""
    for t in _external_tensors(model):
        raise InputError(f"{label}: tensor '{t.name}' refers to external data, which an in-memory model cannot "
                         "resolve; pass the model's file path instead")


def _load_external(model: onnx.ModelProto, path: Path, label: str) -> None:
    tensors = list(_external_tensors(model))
    if not tensors:
        return
    base = path.resolve().parent
    for t in tensors:
        info = {e.key: e.value for e in t.external_data}
        loc = info.get("location", "")
        if not loc:
            raise InputError(f"{label}: tensor '{t.name}' has external data without a location")
        if "\x00" in loc:  # no file name holds one; os.path would raise ValueError (an internal error, exit 1)
            raise InputError(f"{label}: tensor '{t.name}' external data location {loc!r} holds a NUL byte; "
                             "it cannot name a file")
        if os.path.isabs(loc) or loc.startswith(("/", "\\")) or (len(loc) > 1 and loc[1] == ":"):
            raise InputError(f"{label}: tensor '{t.name}' points to absolute external data path '{loc}'; "
                             "external data must sit beside the model")
        target = (base / loc).resolve()
        if not target.is_relative_to(base):
            raise InputError(f"{label}: tensor '{t.name}' external data '{loc}' leaves the model's folder; "
                             "refusing to read it")
        if not target.is_file():
            raise InputError(f"{label}: tensor '{t.name}' external data file '{loc}' is missing beside the model")
        try:
            offset = int(info.get("offset", 0) or 0)
            length = int(info["length"]) if info.get("length") else None
        except ValueError:
            raise InputError(f"{label}: tensor '{t.name}' external data offset {info.get('offset')!r} or length "
                             f"{info.get('length')!r} is not a whole number") from None
        fsize = target.stat().st_size
        itemsize = _itemsize(t.data_type)
        need = length if length is not None else (_numel(t.dims) * itemsize if itemsize else None)
        if offset < 0 or offset > fsize or (need is not None and offset + need > fsize):
            raise InputError(f"{label}: tensor '{t.name}' external data '{loc}' is shorter than declared "
                             f"(offset {offset}, length {need}, file {fsize} bytes)")
        if itemsize and need is not None and need != _numel(t.dims) * itemsize:
            raise InputError(f"{label}: tensor '{t.name}' external data length {need} "
                             f"does not match its shape {list(t.dims)}")
    try:
        from onnx.external_data_helper import load_external_data_for_model

        load_external_data_for_model(model, str(base))
    except Exception as exc:
        raise InputError(f"{label}: cannot read external data: {_short(exc)}") from None


def _itemsize(data_type: int) -> int | None:
    try:
        return np.dtype(onnx.helper.tensor_dtype_to_np_dtype(data_type)).itemsize
    except Exception:
        return None


def _infer(model: onnx.ModelProto, path: Path | None, infer_shapes: bool) -> Graph:
    error = None
    if model.functions:
        model = _inline_functions(model)
    inferred = model
    if infer_shapes:
        try:
            inferred = resolve(model, str(path) if path is not None else "<in-memory model>")
        except ConstantBudgetExceeded:
            raise
        except Exception as exc:  # a model we cannot fully infer is still linted
            error = _short(exc)
            inferred = model
    graph = Graph.from_model(inferred, path, inference_error=error)
    if inferred is not model and (absurd := _absurd_tensor(graph)) is not None:
        error = (f"shape inference produced an absurd shape for '{absurd.name}' {absurd.shape_text()} "
                 f"(limit {MAX_ELEMENTS} elements); inferred shapes ignored")
        graph = Graph.from_model(model, path, inference_error=error)
    return graph


def _absurd_tensor(graph: Graph):
    """The first value (here or in a subgraph) whose static dims multiply past MAX_ELEMENTS."""
    for info in graph.own_tensors.values():  # a subgraph's parents were checked at their own level
        if info.shape:
            dims = [d for d in info.shape if isinstance(d, int)]
            if dims and math.prod(dims) > MAX_ELEMENTS:
                return info
    for node in graph.nodes:
        for sub in node.subgraphs:
            if (found := _absurd_tensor(sub)) is not None:
                return found
    return None


def _inline_functions(model: onnx.ModelProto) -> onnx.ModelProto:
    """Inline model-local functions so every stage sees standard ops; keep the model when that fails."""
    try:
        from onnx.inliner import inline_local_functions

        return inline_local_functions(model)
    except Exception:
        return model
