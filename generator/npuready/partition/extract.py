"""Write the planned parts as ONNX files that recompose to the original model.

``extract(plan, out_dir)`` writes one file per segment — ``head.onnx``, ``body_<k>.onnx`` (always
indexed, also when there is a single body: ``body_0.onnx``), ``cpu_<k>.onnx`` for CPU segments between
bodies, ``tail.onnx`` (or ``cpu.onnx`` when nothing runs on the NPU) — and ``manifest.json`` listing
the parts in run order with their inputs and outputs. Each part carries the initializers it reads and a
copy of the folded constant/shape-helper nodes it needs (Shape/Size of a static tensor become
Constant nodes). ``run_parts`` runs the parts in onnxruntime in manifest order.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import numpy as np
import onnx
from onnx import helper, numpy_helper

from npuready.atomic import write_bytes, write_json
from npuready.errors import InputError
from npuready.graph import Graph, Node
from npuready.partition.deps import node_reads
from npuready.partition.placement import FOLDED

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Part:
    name: str
    device: str
    model: onnx.ModelProto
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]

    @property
    def file(self) -> str:
        return f"{self.name}.onnx"


def build_parts(plan) -> list[Part]:
    """One standalone ModelProto per segment of ``plan`` (a ``PartitionPlan``)."""
    graph: Graph = plan.graph
    if graph is None:
        raise InputError("partition plan has no graph attached; build it with plan_partition()")
    by_name = {n.name: n for n in graph.nodes}
    folded = {p.node for p in plan.placements if p.device == FOLDED}
    folded_producer = {o: by_name[n] for n in folded for o in by_name[n].outputs if o}
    value_infos = _value_infos(graph.model)
    graph_outputs = list(graph.output_names)
    parts = []
    for k, seg in enumerate(plan.segments):
        nodes = [by_name[n] for n in seg.nodes]
        outputs = list(seg.outputs)
        if k == len(plan.segments) - 1:  # graph outputs computed only from constants
            outputs += [o for o in graph_outputs if o in folded_producer and o not in outputs]
        parts.append(_part(graph, seg.name, seg.device, nodes, list(seg.inputs), outputs, folded_producer, value_infos))
    if not parts:
        raise InputError(f"{plan.model}: nothing to extract (the graph has no nodes)")
    return parts


def extract(plan, out_dir: "str | os.PathLike") -> dict[str, Any]:
    """Write every part and ``manifest.json`` under ``out_dir``; return the manifest."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: exists and is not a folder; --extract needs a folder")
    parts = build_parts(plan)
    for part in parts:
        write_bytes(out / part.file, part.model.SerializeToString())
    manifest = {
        "model": plan.model, "target": plan.target, "edges": plan.edges, "verdict": plan.verdict,
        "run_order": "run parts in list order; a part's inputs are graph inputs or outputs of earlier parts",
        "inputs": [t.name for t in plan.graph.inputs], "outputs": list(plan.graph.output_names),
        "parts": [{"name": p.name, "file": p.file, "device": p.device, "inputs": list(p.inputs),
                   "outputs": list(p.outputs), "nodes": len(p.model.graph.node)} for p in parts],
        "calibration": plan.calibration,
    }
    write_json(out / MANIFEST, manifest)
    return manifest


def run_parts(out_dir: "str | os.PathLike", feeds: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Run the extracted parts in onnxruntime (CPU) in manifest order; return the original graph outputs."""
    import onnxruntime as ort

    folder = Path(out_dir)
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    env: dict[str, np.ndarray] = dict(feeds)
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    for part in manifest["parts"]:
        sess = ort.InferenceSession(str(folder / part["file"]), opts, providers=["CPUExecutionProvider"])
        missing = [i for i in part["inputs"] if i not in env]
        if missing:
            raise InputError(f"{folder / part['file']}: inputs {missing} are produced by no earlier part")
        results = sess.run(part["outputs"], {i: env[i] for i in part["inputs"]})
        env.update(zip(part["outputs"], results))
    return {o: env[o] for o in manifest["outputs"]}


def _value_infos(model: onnx.ModelProto) -> dict[str, onnx.ValueInfoProto]:
    g = model.graph
    out = {vi.name: vi for vi in list(g.value_info) + list(g.input) + list(g.output)}
    return out


def _vi(graph: Graph, name: str, value_infos: Mapping[str, onnx.ValueInfoProto]) -> onnx.ValueInfoProto:
    vi = value_infos.get(name)
    if vi is not None and vi.type.tensor_type.elem_type:
        return vi
    info = graph.info(name)
    if info.dtype is None:
        raise InputError(f"tensor '{name}': element type unknown after shape inference; cannot cut the graph here")
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(info.dtype))
    return helper.make_tensor_value_info(name, elem, None if info.shape is None else list(info.shape))


def _part(graph: Graph, name: str, device: str, nodes: list[Node], inputs: list[str], outputs: list[str],
          folded_producer: Mapping[str, Node], value_infos) -> Part:
    # folded helpers this part reads, transitively, in original order
    needed: dict[str, Node] = {}
    stack = [i for n in nodes for i in node_reads(n)] + list(outputs)
    while stack:
        t = stack.pop()
        p = folded_producer.get(t)
        if p is None or p.name in needed:
            continue
        needed[p.name] = p
        if p.op_type not in ("Shape", "Size"):
            stack.extend(node_reads(p))
    helpers = sorted(needed.values(), key=lambda n: n.index)
    protos = [_materialize(graph, h) for h in helpers] + [n.proto for n in nodes]
    reads = ({i for n in nodes for i in node_reads(n)}
             | {i for h in helpers if h.op_type not in ("Shape", "Size") for i in node_reads(h)})
    inits = [t for t in graph.model.graph.initializer if t.name in reads]
    g = helper.make_graph(protos, f"{graph.name}_{name}", [_vi(graph, i, value_infos) for i in inputs],
                          [_vi(graph, o, value_infos) for o in outputs], initializer=inits)
    src = graph.model
    model = helper.make_model(g, opset_imports=list(src.opset_import), producer_name="npuready-partition")
    model.ir_version = src.ir_version
    model.functions.extend(src.functions)
    return Part(name, device, model, tuple(inputs), tuple(outputs))


def _materialize(graph: Graph, node: Node) -> onnx.NodeProto:
    """Shape/Size of a static tensor → a Constant node with the known value; other helpers unchanged."""
    if node.op_type not in ("Shape", "Size"):
        return node.proto
    shape = graph.info(node.inputs[0]).shape
    if node.op_type == "Size":
        value = np.array(int(np.prod(shape, dtype=np.int64)), np.int64)
    else:
        start, end = node.attr("start", 0), node.attr("end", None)
        value = np.array(list(shape)[slice(start, end)], np.int64)
    return helper.make_node("Constant", [], [node.outputs[0]], name=node.name,
                            value=numpy_helper.from_array(value, node.outputs[0]))
