"""Side by side: npuready's partition on the ``nnapi-mirror`` target vs onnxruntime's mobile usability
checker for NNAPI (``onnxruntime.tools.mobile_helpers.usability_checker``), on the same models.

Both are static analyses (op lists and shapes); neither ran on an NNAPI device. Every node placed
differently is listed with the reason derived from npuready's placement, and a partition-count
difference with identical node sets is attributed to the grouping algorithms.
"""
from __future__ import annotations

import copy
import logging
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

import onnx

from npuready.graph import load
from npuready.partition.examples import EXAMPLES
from npuready.partition.nnapi_mirror import TARGET_NAME
from npuready.partition.placement import FOLDED, NPU
from npuready.partition.plan import plan_partition

BASIS = ("both columns are static analyses of the ONNX graph (supported-op lists, static shapes, and for npuready "
         "its lint ERRORs); neither ran on an NNAPI device")


def ort_nnapi(model: onnx.ModelProto, optimize: bool = False) -> dict[str, Any]:
    """Run the usability checker's NNAPI partition estimate (as ``analyze_model`` does, optionally after
    its BASIC-level ``optimize_model``). Returns partitions, supported/total nodes and supported node names."""
    from npuready.ort_tools import import_tool

    uc = import_tool("mobile_helpers.usability_checker")
    utils = import_tool("onnx_model_utils")
    ModelProtoWithShapeInfo, is_fixed_size_tensor, optimize_model = (
        utils.ModelProtoWithShapeInfo, utils.is_fixed_size_tensor, utils.optimize_model)

    logging.getLogger("usability_checker").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.onnx"
        onnx.save(model, str(path))
        if optimize:
            opt = Path(tmp) / "optimized.onnx"
            optimize_model(path, opt, use_external_initializers=True)
            path = opt
        shaped = ModelProtoWithShapeInfo(path).model_with_shape_info
        info = uc.check_nnapi_partitions(shaped, require_fixed_input_sizes=True)
    g = shaped.graph
    vis = {v.name: v for v in list(g.input) + list(g.output) + list(g.value_info)}
    inits = {t.name for t in g.initializer}
    unfixed = {}
    for n in g.node:
        bad = [i for i in n.input if i and i not in inits and not (i in vis and is_fixed_size_tensor(vis[i]))]
        if bad:
            unfixed[n.name] = bad
    return {"unfixed_inputs": unfixed, "partitions": info.num_partitions, "supported_nodes": info.num_supported_nodes,
            "total_nodes": info.num_nodes,
            "supported": sorted(n.name for group in info.supported_groups for n in group),
            "unsupported_ops": sorted(info.unsupported_ops)}


def _named(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy whose main-graph nodes carry npuready's node names, so both tools name nodes alike."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    graph = load(model, infer_shapes=False)
    by_proto = {id(n.proto): n.name for n in graph.nodes}
    for src, dst in zip(graph.proto.node, out.graph.node):
        dst.name = by_proto[id(src)]
    return out


def compare_model(name: str, model: onnx.ModelProto) -> dict[str, Any]:
    model = _named(model)
    plan = plan_partition(model, TARGET_NAME)
    ort = ort_nnapi(model)
    ort_opt = ort_nnapi(model, optimize=True)
    supported = set(ort["supported"])
    diffs = []
    for p in plan.placements:
        ours_npu = p.device == NPU
        if ours_npu == (p.node in supported):
            continue
        diffs.append({"node": p.node, "op_type": p.op_type, "npuready": p.device,
                      "ort": "NNAPI" if p.node in supported else "CPU",
                      "reason": _reason(p.device, p.reason, ort["unfixed_inputs"].get(p.node))})
    npu_nodes = sum(p.device == NPU for p in plan.placements)
    ours = {"npu_segments": len(plan.npu_segments), "npu_nodes": npu_nodes,
            "cpu_nodes": sum(p.device == "cpu" for p in plan.placements),
            "folded_nodes": sum(p.device == FOLDED for p in plan.placements), "verdict": plan.verdict}
    explanation = []
    if diffs:
        explanation.append(f"{len(diffs)} node(s) placed differently; each is listed with its reason.")
    if ours["npu_segments"] != ort["partitions"]:
        if not diffs:
            explanation.append("same node placement, different grouping: onnxruntime forms partitions with its own "
                               "traversal (partitioning_utils.cc), npuready cuts contiguous runs of a device-affine "
                               "topological order.")
        else:
            explanation.append("the partition counts differ because of the node differences listed.")
    else:
        explanation.append("same number of NPU partitions." if not diffs else
                           "same number of NPU partitions despite the node differences (they sit at the edges or "
                           "inside CPU runs).")
    folded = [p for p in plan.placements if p.device == FOLDED]
    if folded:
        ops = sorted({p.op_type for p in folded})
        explanation.append(f"npuready folds {len(folded)} constant/shape-helper node(s) ({', '.join(ops)}) into the "
                           f"parts that read them; onnxruntime counts them among its {ort['total_nodes']} nodes "
                           f"({sum(p.node not in supported for p in folded)} of them outside any NNAPI partition).")
    if ort_opt["partitions"] != ort["partitions"]:
        explanation.append(f"onnxruntime's default path first optimizes the model (BASIC level: constant folding, "
                           f"fusions) and then reports {ort_opt['partitions']} partition(s); the columns compare the "
                           "unoptimized graph that npuready reads.")
    return {"model": name, "npuready": ours,
            "ort": {k: ort[k] for k in ("partitions", "supported_nodes", "total_nodes", "unsupported_ops")},
            "ort_optimized": {k: ort_opt[k] for k in ("partitions", "supported_nodes", "total_nodes")},
            "node_differences": diffs, "explanation": explanation}


def _reason(device: str, reason: str, unfixed: "list[str] | None") -> str:
    if device == NPU and unfixed:
        return (f"onnxruntime's checker sees input(s) {', '.join(unfixed)} without a static shape (it runs "
                "onnx.shape_inference.infer_shapes without data propagation, so Shape→Reshape targets stay unknown) "
                "and keeps the node off NNAPI; npuready's loader infers shapes with data propagation and finds them "
                "static")
    if device == NPU:
        return "onnxruntime's grouping left this supported node outside every partition"
    if device == FOLDED:
        return ("npuready folds this constant/shape helper (its value is known before inference, so it follows its "
                "consumers and belongs to no partition); onnxruntime counts it as a node of its own")
    if "lint ERROR" in reason:
        return reason.replace("cpu: ", "npuready ") + " (onnxruntime checks only the op list and static input shapes)"
    if "dynamic" in reason:
        return ("npuready requires static inputs and outputs; onnxruntime checks only the inputs' shapes")
    return reason


def light_resnet50() -> onnx.ModelProto:
    """onnx's own test model (weights replaced by ConstantOfShape), shipped in the onnx wheel."""
    return onnx.load(str(Path(onnx.__file__).parent / "backend" / "test" / "data" / "light" / "light_resnet50.onnx"))


DEFAULT_MODELS: dict[str, Callable[[], onnx.ModelProto]] = {**EXAMPLES, "light_resnet50": light_resnet50}


def compare(models: "Mapping[str, Callable[[], onnx.ModelProto]] | None" = None) -> dict[str, Any]:
    """The comparison as a dict (an experiment ``results`` section); default: examples + light_resnet50."""
    if models is None:
        return copy.deepcopy(_default())
    return _compare(models)


@lru_cache(maxsize=1)
def _default() -> dict[str, Any]:
    return _compare(DEFAULT_MODELS)


def _compare(models: "Mapping[str, Callable[[], onnx.ModelProto]]") -> dict[str, Any]:
    import onnxruntime

    rows = [compare_model(name, build()) for name, build in models.items()]
    return {"evidence": "analysis", "basis": BASIS, "target": TARGET_NAME,
            "tool": f"onnxruntime {onnxruntime.__version__} "
                    "tools.mobile_helpers.usability_checker.check_nnapi_partitions",
            "models": rows}
