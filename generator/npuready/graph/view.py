"""The one read-only view of an ONNX graph that every stage uses.

``Graph`` wraps a shape-resolved ``onnx.ModelProto`` (``npuready.graph.resolve``) and exposes nodes in
topological order, tensor shapes/dtypes, constants (decoded lazily), the nodes folded at compile time
(``folded``, ``shape_folded``; see ``npuready.graph.fold``) and producer/consumer maps.
Subgraphs of If/Loop/Scan are views of their own, reachable through ``Node.subgraphs``
and ``Graph.walk()``.
"""
from __future__ import annotations

from collections import ChainMap
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping

import numpy as np
import onnx
from onnx import helper, numpy_helper

Dim = int | str | None  # static size, symbolic name, or unknown


@dataclass(frozen=True)
class TensorInfo:
    """Name, element type and shape of one value. ``shape is None`` means unknown rank."""

    name: str
    dtype: str | None
    shape: tuple[Dim, ...] | None

    @property
    def is_static(self) -> bool:
        return self.shape is not None and all(isinstance(d, int) and d >= 0 for d in self.shape)

    @property
    def numel(self) -> int | None:
        if not self.is_static:
            return None
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1

    @property
    def itemsize(self) -> int | None:
        if self.dtype is None:
            return None
        try:
            return np.dtype(self.dtype).itemsize
        except TypeError:
            return None

    @property
    def nbytes(self) -> int | None:
        n, size = self.numel, self.itemsize
        return None if n is None or size is None else n * size

    def shape_text(self) -> str:
        if self.shape is None:
            return "?"
        return "[" + ",".join("?" if d is None else str(d) for d in self.shape) + "]"


@dataclass(frozen=True)
class Node:
    """One operator. ``name`` is unique in its graph (generated when the file has none)."""

    name: str
    op_type: str
    domain: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    attrs: Mapping[str, Any]
    index: int
    subgraphs: tuple["Graph", ...] = ()
    proto: onnx.NodeProto | None = field(default=None, repr=False, compare=False)

    @property
    def is_standard(self) -> bool:
        return self.domain in ("", "ai.onnx")

    def attr(self, key: str, default: Any = None) -> Any:
        return self.attrs.get(key, default)


def _dim(d: onnx.TensorShapeProto.Dimension) -> Dim:
    if d.HasField("dim_value"):
        value = int(d.dim_value)
        return value if value >= 0 else None  # a negative inferred dim means "unknown" (declared ones are refused)
    if d.HasField("dim_param") and d.dim_param:
        return d.dim_param
    return None


@lru_cache(maxsize=None)
def _dtype_name(elem_type: int, fallback: bool = True) -> str | None:
    """NumPy dtype name of an ONNX element type (cached: numpy's dtype naming is slow per call)."""
    try:
        return np.dtype(helper.tensor_dtype_to_np_dtype(elem_type)).name
    except (KeyError, TypeError, ValueError):
        if not fallback:
            return None
        try:
            return onnx.TensorProto.DataType.Name(elem_type).lower()
        except ValueError:
            return None


def tensor_info(vi: onnx.ValueInfoProto) -> TensorInfo:
    tt = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
    dtype = None
    shape: tuple[Dim, ...] | None = None
    if tt is not None:
        if tt.elem_type:
            dtype = _dtype_name(tt.elem_type)
        if tt.HasField("shape"):
            shape = tuple(_dim(d) for d in tt.shape.dim)
    return TensorInfo(vi.name, dtype, shape)


def _init_info(t: onnx.TensorProto) -> TensorInfo:
    return TensorInfo(t.name, _dtype_name(t.data_type, False), tuple(t.dims))


def _decode_attr(a: onnx.AttributeProto, owner: "Graph", node_name: str) -> Any:
    kind = a.type
    A = onnx.AttributeProto
    if kind == A.GRAPH:
        return owner.subgraph(a.g, f"{node_name}.{a.name}")
    if kind == A.GRAPHS:
        many = len(a.graphs) > 1
        return [owner.subgraph(g, f"{node_name}.{a.name}" + (f"[{k}]" if many else "")) for k, g in enumerate(a.graphs)]
    if kind == A.TENSOR:
        return a.t  # decoded on demand by Graph.constant
    value = helper.get_attribute_value(a)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, list):
        return [v.decode("utf-8", "replace") if isinstance(v, bytes) else v for v in value]
    return value


def _subgraphs_of(attrs: Mapping[str, Any]) -> tuple["Graph", ...]:
    """A node's subgraphs in attribute order (GRAPH and GRAPHS attributes)."""
    subs: list[Graph] = []
    for v in attrs.values():
        if isinstance(v, Graph):
            subs.append(v)
        elif isinstance(v, list) and v and isinstance(v[0], Graph):
            subs.extend(v)
    return tuple(subs)


class _Known:
    """Names a graph's nodes may read without a producer in it: its own initializers and inputs, and every
    value of its parents (looked up in their shared tables, not copied into a set per subgraph)."""

    def __init__(self, local: set[str], outer: Mapping[str, Any]):
        self.local, self.outer = local, outer

    def __contains__(self, name: object) -> bool:
        return name in self.local or name in self.outer


def _maps(tensors: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The tables a ChainMap over ``tensors`` should hold: its own maps when it is one (kept flat)."""
    return list(tensors.maps) if isinstance(tensors, ChainMap) else [tensors]


def _toposort(nodes: list[onnx.NodeProto], known: "set[str] | _Known") -> list[int]:
    """Kahn's order that keeps file order where possible; nodes in a cycle go last."""
    produced_by: dict[str, int] = {}
    for i, n in enumerate(nodes):
        for o in n.output:
            if o:
                produced_by.setdefault(o, i)
    deps = []
    for i, n in enumerate(nodes):
        d = {produced_by[x] for x in n.input if x and x in produced_by and x not in known and produced_by[x] != i}
        deps.append(d)
    if all(all(j < i for j in d) for i, d in enumerate(deps)):
        return list(range(len(nodes)))
    users: dict[int, list[int]] = {i: [] for i in range(len(nodes))}
    remaining = [len(d) for d in deps]
    for i, d in enumerate(deps):
        for j in d:
            users[j].append(i)
    import heapq

    ready = [i for i, r in enumerate(remaining) if r == 0]
    heapq.heapify(ready)
    order: list[int] = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for u in users[i]:
            remaining[u] -= 1
            if remaining[u] == 0:
                heapq.heappush(ready, u)
    seen = set(order)
    order.extend(i for i in range(len(nodes)) if i not in seen)
    return order


class Graph:
    """Read-only view over one ``onnx.GraphProto`` (the main graph or a subgraph)."""

    def __init__(self, proto: onnx.GraphProto, model: onnx.ModelProto, path: Path | None,
                 parent: "Graph | None" = None, inference_error: str | None = None, scope: str = ""):
        self.proto = proto
        self.model = model
        self.path = path
        self.parent = parent
        self.inference_error = inference_error
        self.pinned = ""  # the shape pins the loader applied, as options ("--batch 1"); "" when none
        self.imported = None  # npuready.importer.Imported: what the loader's importer rewrote (None: not loaded)
        self.name = proto.name or (path.stem if path else "graph")
        self.scope = scope  # "" for the main graph, "<node>.<attr>[/<node>.<attr>…]" paths for subgraphs
        init_names = {t.name for t in proto.initializer} | {t.values.name for t in proto.sparse_initializer}
        self._init_protos = {t.name: t for t in proto.initializer}
        self.initializer_names = frozenset(init_names)
        infos: dict[str, TensorInfo] = {}  # a subgraph's parents' tables are chained below, never copied
        for t in proto.initializer:
            infos[t.name] = _init_info(t)
        inputs = [tensor_info(vi) for vi in proto.input]
        outputs = [tensor_info(vi) for vi in proto.output]
        for info in inputs + [tensor_info(vi) for vi in proto.value_info] + outputs:
            old = infos.get(info.name)
            if old is None or (old.shape is None and info.shape is not None) or info.name not in init_names:
                infos[info.name] = info
        self.own_tensors: Mapping[str, TensorInfo] = infos  # this graph's own values (not its parents')
        self.tensors: Mapping[str, TensorInfo] = (
            infos if parent is None else ChainMap(infos, *_maps(parent.tensors)))  # own first, then the parents'
        self.inputs = tuple(info for info in inputs if info.name not in init_names)
        self.outputs = tuple(outputs)
        known = _Known(init_names | {vi.name for vi in proto.input}, parent.tensors if parent is not None else {})
        order = _toposort(list(proto.node), known)
        used: set[str] = set()
        nodes = []
        for pos, i in enumerate(order):
            n = proto.node[i]
            name = n.name or f"{n.op_type}_{i}"
            if name in used:
                name = f"{name}#{i}"
            used.add(name)
            attrs = {a.name: _decode_attr(a, self, name) for a in n.attribute}
            nodes.append(Node(name=name, op_type=n.op_type, domain=n.domain, inputs=tuple(n.input),
                              outputs=tuple(n.output), attrs=attrs, index=pos,
                              subgraphs=_subgraphs_of(attrs), proto=n))
        self.nodes: tuple[Node, ...] = tuple(nodes)
        self._const_cache: dict[str, np.ndarray | None] = {}

    def subgraph(self, proto: onnx.GraphProto, local_scope: str) -> "Graph":
        """A subgraph of one of this graph's nodes; its scope path ("<node>.<attr>[k]") is nested below
        this graph's before its own nodes (and their subgraphs) are built."""
        scope = (self.scope + "/" if self.scope else "") + local_scope
        return Graph(proto, self.model, self.path, self, scope=scope)

    @classmethod
    def from_graph_proto(cls, g: onnx.GraphProto, model: onnx.ModelProto, path: Path | None,
                         parent: "Graph | None" = None) -> "Graph":
        return cls(g, model, path, parent)

    @classmethod
    def from_model(cls, model: onnx.ModelProto, path: Path | None = None,
                   inference_error: str | None = None) -> "Graph":
        return cls(model.graph, model, path, None, inference_error)

    # ----- lookups -------------------------------------------------------------------------
    @cached_property
    def producers(self) -> Mapping[str, Node]:
        return {o: n for n in self.nodes for o in n.outputs if o}

    @cached_property
    def consumers(self) -> Mapping[str, tuple[Node, ...]]:
        users: dict[str, list[Node]] = {}
        for n in self.nodes:
            for i in n.inputs:
                if i:
                    users.setdefault(i, []).append(n)
        return {k: tuple(v) for k, v in users.items()}

    @cached_property
    def opsets(self) -> Mapping[str, int]:
        return {(o.domain or ""): int(o.version) for o in self.model.opset_import}

    @cached_property
    def _folding(self) -> tuple[frozenset[str], frozenset[str]]:
        from npuready.graph.fold import folded_nodes

        return folded_nodes(self)

    @property
    def folded(self) -> frozenset[str]:
        """Names of this graph's nodes whose outputs are known before inference (constants, Shape/Size of
        statically shaped tensors and everything computed only from those and initializers)."""
        return self._folding[0]

    @property
    def shape_folded(self) -> frozenset[str]:
        """The folded nodes that are shape computations (a Shape/Size feeds them): their values follow from
        the resolved shapes, and ``constant`` returns them."""
        return self._folding[1]

    @property
    def output_names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.outputs)

    def info(self, name: str) -> TensorInfo:
        return self.tensors.get(name) or TensorInfo(name, None, None)

    def is_constant(self, name: str) -> bool:
        """True when ``name`` is an initializer or the output of a Constant node (here or outer)."""
        if not name:
            return False
        if name in self.initializer_names:
            return True
        p = self.producers.get(name)
        if p is not None:
            return p.op_type == "Constant" and p.is_standard
        return self.parent.is_constant(name) if self.parent is not None else False

    def constant(self, name: str) -> np.ndarray | None:
        """The value of an initializer, a Constant output or a folded shape computation's output; None when
        it is computed at run time."""
        if name in self._const_cache:
            return self._const_cache[name]
        value: np.ndarray | None = None
        if name in self._init_protos:
            value = _to_array(self._init_protos[name])
        elif (p := self.producers.get(name)) is not None:
            if p.op_type == "Constant" and p.is_standard:
                value = _constant_node_value(p)
            elif p.name in self.shape_folded:
                from npuready.graph.fold import value as folded_value

                self._const_cache[name] = None  # guards against a cycle while evaluating
                value = folded_value(self, p, name)
        elif self.parent is not None:
            value = self.parent.constant(name)
        self._const_cache[name] = value
        return value

    def walk(self) -> Iterator[tuple["Graph", Node]]:
        """Every node of this graph and of nested subgraphs, depth first, with its graph."""
        for n in self.nodes:
            yield self, n
            for sub in n.subgraphs:
                yield from sub.walk()

    def node(self, name: str) -> Node:
        for n in self.nodes:
            if n.name == name:
                return n
        raise KeyError(name)

    def __repr__(self) -> str:
        return f"Graph({self.name!r}, nodes={len(self.nodes)})"


def _to_array(t: onnx.TensorProto) -> np.ndarray | None:
    try:
        if t.data_location == onnx.TensorProto.EXTERNAL:
            return None  # external data is loaded by the safe loader before the view is built
        return numpy_helper.to_array(t)
    except Exception:  # malformed tensor payload: treat as unknown value
        return None


def _constant_node_value(node: Node) -> np.ndarray | None:
    a = node.attrs
    if "value" in a and isinstance(a["value"], onnx.TensorProto):
        return _to_array(a["value"])
    for key, dtype in (("value_float", np.float32), ("value_int", np.int64),
                       ("value_floats", np.float32), ("value_ints", np.int64)):
        if key in a:
            return np.array(a[key], dtype=dtype)
    return None
