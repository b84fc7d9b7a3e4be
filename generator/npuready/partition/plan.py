"""The partition plan: segments in execution order, CPU↔NPU crossings, verdict, calibration tensors.

Segments are the contiguous runs of one device in a topological order chosen to keep each device
busy as long as possible (Kahn's algorithm that takes a ready node of the current device before
switching), so independent branches do not create extra segments. Folded nodes (constants and
shape helpers, see ``placement``) belong to no segment.
"""
from __future__ import annotations

import heapq
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import onnx

from npuready.graph import Graph, load
from npuready.graph.shape_summary import shape_summary
from npuready.graph.unresolved import require_pinned
from npuready.partition.deps import node_reads
from npuready.partition.inventory import InventoryItem, build_inventory
from npuready.partition.layout import guess_layout
from npuready.partition.macs import graph_macs
from npuready.partition.placement import CPU, EDGE_POLICIES, FOLDED, NPU, Placement, place, with_edges
from npuready.targets import DEFAULT_TARGET, Target, load_target
from npuready.errors import InputError

if TYPE_CHECKING:
    from npuready.lint.api import LintRun

BASIS = ("placement rests on the target's declarations (op table, activation, norm and resize support), npuready "
         "lint ERRORs and static shapes of the ONNX graph; it is not a compiler's partition and says nothing "
         "measured about NPU silicon")


@dataclass(frozen=True)
class TensorRef:
    name: str
    shape: tuple | None
    dtype: str | None  # as in the ONNX graph: a float export crosses as float32
    nbytes: int | None  # in that dtype
    layout: str  # NCHW | NHWC | other | unknown
    elements: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "shape": None if self.shape is None else list(self.shape), "dtype": self.dtype,
                "bytes": self.nbytes, "layout": self.layout}


@dataclass(frozen=True)
class Crossing:
    """One tensor copied between host (CPU) memory and the NPU: NPU→CPU once per tensor an NPU segment
    hands on (however many parts or graph outputs read it); CPU→NPU once per NPU segment that reads it.
    Two NPU segments are separate compiled programs, so a tensor passed between them counts both ways."""

    tensor: TensorRef
    source: str  # part name, or "input" for a graph input
    destinations: tuple[str, ...]  # part names, "output" for a graph output
    direction: str  # "cpu→npu" | "npu→cpu"

    def to_dict(self) -> dict[str, Any]:
        # elements: what crosses; bytes: in the graph's dtype; npu_bytes: int8, one byte each, as cost counts
        tensor = dict(self.tensor.to_dict(), elements=self.tensor.elements, npu_bytes=self.tensor.elements)
        return {"tensor": tensor, "from": self.source, "to": list(self.destinations), "direction": self.direction}


@dataclass(frozen=True)
class Segment:
    index: int
    name: str  # head | body_<k> | cpu_<k> | tail | cpu
    device: str  # npu | cpu
    nodes: tuple[str, ...]
    op_types: tuple[tuple[str, int], ...]
    macs: int
    mac_share: float
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "name": self.name, "device": self.device, "nodes": list(self.nodes),
                "op_types": dict(self.op_types), "macs": self.macs, "mac_share": round(self.mac_share, 6),
                "inputs": list(self.inputs), "outputs": list(self.outputs)}


@dataclass(frozen=True)
class PartitionPlan:
    model: str
    target: str
    edges: str
    segments: tuple[Segment, ...]
    placements: tuple[Placement, ...]
    crossings: tuple[Crossing, ...]
    verdict: str  # one-body | fragmented | no-npu
    splitters: tuple[tuple[str, str, str], ...]  # (node, op_type, reason) of CPU nodes between NPU segments
    total_macs: int
    macs_unknown: tuple[str, ...]
    calibration: dict = field(default_factory=dict)
    inventory: tuple[InventoryItem, ...] = ()
    # lint ERRORs not tied to a node ("R001b: ..."): they block deployment as a whole
    graph_errors: tuple[str, ...] = ()
    shape_inference_error: str | None = None
    graph: Graph | None = field(default=None, repr=False, compare=False)

    @property
    def npu_segments(self) -> tuple[Segment, ...]:
        return tuple(s for s in self.segments if s.device == NPU)

    @property
    def transfer_bytes(self) -> int:
        """Bytes crossing per inference in the graph's dtypes (a float export: float32)."""
        return sum(c.tensor.nbytes or 0 for c in self.crossings)

    @property
    def transfer_elements(self) -> int:
        """Elements crossing per inference: what ``npuready cost`` counts at one byte each (int8 NPU build)."""
        return sum(c.tensor.elements or 0 for c in self.crossings)

    @property
    def folded(self) -> tuple[str, ...]:
        return tuple(p.node for p in self.placements if p.device == FOLDED)

    @property
    def missing_cpu_code(self) -> tuple[InventoryItem, ...]:
        return tuple(i for i in self.inventory if i.cpu_function is None)

    def verdict_text(self) -> str:
        n = len(self.npu_segments)
        if self.verdict == "no-npu":
            return "nothing on the NPU: every node runs on the CPU"
        if self.verdict == "one-body":
            return "one NPU body (good): " + ", ".join(s.name for s in self.segments)
        ops = sorted({op for _, op, _ in self.splitters})
        return f"fragmented: {n} NPU segments, split by {', '.join(ops)} — CPU↔NPU transfers will dominate"

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model, "target": self.target, "edges": self.edges,
            "verdict": self.verdict, "verdict_text": self.verdict_text(),
            "npu_segments": len(self.npu_segments),
            "splitters": [{"node": n, "op_type": o, "reason": r} for n, o, r in self.splitters],
            "segments": [s.to_dict() for s in self.segments],
            "crossings": [c.to_dict() for c in self.crossings],
            "transfer_bytes_per_inference": self.transfer_bytes,
            "transfer_elements_per_inference": self.transfer_elements,
            "total_macs": self.total_macs, "macs_unknown": list(self.macs_unknown),
            "folded": list(self.folded),
            "shapes": shape_summary(self.graph) if self.graph is not None else None,
            "placements": [{"node": p.node, "op_type": p.op_type, "device": p.device, "reason": p.reason}
                           for p in self.placements],
            "calibration": self.calibration,
            "inventory": [i.to_dict() for i in self.inventory],
            "missing_cpu_code": [i.node for i in self.missing_cpu_code],
            "graph_lint_errors": list(self.graph_errors),
            "shape_inference_error": self.shape_inference_error,
            "basis": BASIS,
        }


def plan_partition(model: "str | os.PathLike | onnx.ModelProto | Graph", target: "str | Target" = DEFAULT_TARGET,
                   allow_batched_input: bool = False, edges: str = "npu",
                   lint_errors: "dict[str, tuple[str, ...]] | None" = None, profile: str = "target",
                   lint_run: "LintRun | None" = None) -> PartitionPlan:
    """Plan the CPU/NPU split. ``lint_run`` (``npuready.lint.api.run_lint`` of this graph and target) hands
    over the placement lint decided, so nothing is linted or placed again (``npuready.analysis`` does so);
    without it the planner runs lint itself with ``allow_batched_input`` and ``profile`` (the severity policy
    whose ERRORs keep nodes off the NPU, ``npuready.lint.policy``). ``lint_errors`` (node → rule ids)
    replaces lint altogether. Raises ``InputError`` when a graph input's dims are not pinned
    (``npuready.graph.unresolved``)."""
    if edges not in EDGE_POLICIES:
        raise InputError(f"edges policy '{edges}': unknown; use one of {', '.join(EDGE_POLICIES)}")
    graph = load(model)
    require_pinned(graph, "the partition")
    tgt = load_target(target)
    graph_errors: tuple[str, ...] = ()
    if lint_run is None and lint_errors is None:
        from npuready.lint.api import run_lint
        from npuready.lint.policy import check_profile
        from npuready.lint.rule import LintOptions

        lint_run = run_lint(graph, tgt, LintOptions(allow_batched_input, check_profile(profile)))
    if lint_run is not None:
        placements = with_edges(graph, lint_run.placements, edges)
        graph_errors = lint_run.graph_errors
    else:
        placements = place(graph, tgt, lint_errors, edges)
    return build_plan(graph, tgt, placements, edges, graph_errors)


def build_plan(graph: Graph, tgt: Target, placements: "dict[str, Placement]", edges: str = "npu",
               graph_errors: tuple[str, ...] = ()) -> PartitionPlan:
    """The plan of ``graph`` from a placement already decided (``placement.place`` / ``with_edges``)."""
    order = _device_order(graph, placements)
    macs = graph_macs(graph)
    total = sum(m or 0 for m in macs.values())
    runs: list[tuple[str, list[str]]] = []
    for name in order:
        dev = placements[name].device
        if runs and runs[-1][0] == dev:
            runs[-1][1].append(name)
        else:
            runs.append((dev, [name]))
    names = _segment_names([d for d, _ in runs])
    by_name = {n.name: n for n in graph.nodes}
    folded_out = {o for n in graph.nodes if placements[n.name].device == FOLDED for o in n.outputs if o}
    static_values = folded_out | set(graph.initializer_names)
    owner: dict[str, str] = {t.name: "input" for t in graph.inputs}
    for k, (_, members) in enumerate(runs):
        for m in members:
            for o in by_name[m].outputs:
                if o:
                    owner[o] = names[k]
    seg_inputs: dict[str, list[str]] = {nm: [] for nm in names}
    seg_outputs: dict[str, list[str]] = {nm: [] for nm in names}
    consumers_of: dict[str, list[str]] = {}
    listed: set[tuple[str, str]] = set()  # (segment, tensor) already in seg_inputs: linear in a node's inputs
    for k, (_, members) in enumerate(runs):
        for m in members:
            for i in node_reads(by_name[m]):
                if i not in static_values and owner.get(i) != names[k]:
                    if (names[k], i) not in listed:
                        listed.add((names[k], i))
                        seg_inputs[names[k]].append(i)
                        consumers_of.setdefault(i, []).append(names[k])
    outputs = set(graph.output_names)
    for t, src in owner.items():
        if src == "input":
            continue
        if t in consumers_of or t in outputs:
            seg_outputs[src].append(t)
    segments = []
    for k, (dev, members) in enumerate(runs):
        seg_macs = sum(macs[m] or 0 for m in members)
        ops = Counter(by_name[m].op_type for m in members)
        segments.append(Segment(k, names[k], dev, tuple(members), tuple(sorted(ops.items())), seg_macs,
                                seg_macs / total if total else 0.0, tuple(seg_inputs[names[k]]),
                                tuple(seg_outputs[names[k]])))
    device_of = {nm: d for nm, (d, _) in zip(names, runs)} | {"input": CPU, "output": CPU}
    crossings = []
    for t, src in owner.items():
        dests = list(consumers_of.get(t, [])) + (["output"] if t in outputs else [])
        if device_of[src] == NPU and dests:  # leaves the NPU once, whatever reads it afterwards
            crossings.append(Crossing(tensor_ref(graph, t), src, tuple(dests), "npu→cpu"))
        # every NPU segment that reads it gets it as its own input (separate NPU segments meet in host memory)
        crossings.extend(Crossing(tensor_ref(graph, t), src, (d,), "cpu→npu") for d in dests if device_of[d] == NPU)
    npu = [s for s in segments if s.device == NPU]
    verdict = "no-npu" if not npu else ("one-body" if len(npu) == 1 else "fragmented")
    splitters = []
    if len(npu) > 1:
        for s in segments[npu[0].index + 1:npu[-1].index]:
            if s.device == CPU:
                splitters.extend((n, by_name[n].op_type, placements[n].reason) for n in s.nodes)
    calibration = {
        "cpu_offload": {"note": "compiling with CPU offload keeps the head in the compiled model: calibrate with "
                                "data shaped like the original model input",
                        "tensors": [tensor_ref(graph, t.name).to_dict() for t in graph.inputs]},
        "body_only": {"note": "compiling the NPU body alone: calibrate with data shaped like the body's input "
                              "(the head's output after the application's own pre-processing)",
                      "tensors": {s.name: [tensor_ref(graph, t).to_dict() for t in s.inputs] for s in npu}},
    }
    return PartitionPlan(
        model=str(graph.path) if graph.path else graph.name, target=tgt.name, edges=edges, segments=tuple(segments),
        placements=tuple(placements[n.name] for n in graph.nodes), crossings=tuple(crossings), verdict=verdict,
        splitters=tuple(splitters), total_macs=total, macs_unknown=tuple(n for n, m in macs.items() if m is None),
        calibration=calibration, inventory=tuple(build_inventory(graph, segments)), graph=graph,
        graph_errors=graph_errors, shape_inference_error=graph.inference_error)


def tensor_ref(graph: Graph, name: str) -> TensorRef:
    info = graph.info(name)
    return TensorRef(name, info.shape, info.dtype, info.nbytes, guess_layout(graph, name), info.numel)


def _segment_names(devices: list[str]) -> list[str]:
    npu_idx = [i for i, d in enumerate(devices) if d == NPU]
    if not npu_idx:
        return ["cpu"] * len(devices)
    names, body = [], -1
    for i, d in enumerate(devices):
        if d == NPU:
            body += 1
            names.append(f"body_{body}")
        elif i < npu_idx[0]:
            names.append("head")
        elif i > npu_idx[-1]:
            names.append("tail")
        else:
            names.append(f"cpu_{body}")
    return names


def _device_order(graph: Graph, placements: dict[str, Placement]) -> list[str]:
    """Topological order of non-folded nodes that stays on one device while it has ready work."""
    nodes = [n for n in graph.nodes if placements[n.name].device != FOLDED]
    pos = {n.name: i for i, n in enumerate(nodes)}
    producer = {o: n.name for n in nodes for o in n.outputs if o}
    users: dict[str, list[str]] = {n.name: [] for n in nodes}
    indeg = {}
    for n in nodes:
        deps = {producer[i] for i in node_reads(n) if i in producer and producer[i] != n.name}
        indeg[n.name] = len(deps)
        for d in deps:
            users[d].append(n.name)
    ready: dict[str, list[int]] = {NPU: [], CPU: []}
    for n in nodes:
        if indeg[n.name] == 0:
            heapq.heappush(ready[placements[n.name].device], pos[n.name])
    order: list[str] = []
    current = None
    while ready[NPU] or ready[CPU]:
        if current is None or not ready[current]:
            candidates = [d for d in (NPU, CPU) if ready[d]]
            current = min(candidates, key=lambda d: ready[d][0])
        i = heapq.heappop(ready[current])
        name = nodes[i].name
        order.append(name)
        for u in users[name]:
            indeg[u] -= 1
            if indeg[u] == 0:
                heapq.heappush(ready[placements[u].device], pos[u])
    if len(order) != len(nodes):  # a cycle: keep the rest in file order so nothing is lost
        seen = set(order)
        order.extend(n.name for n in nodes if n.name not in seen)
    return order
