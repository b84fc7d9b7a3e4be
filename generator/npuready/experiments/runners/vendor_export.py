"""Experiment `vendor-export`: the INT8 artifacts `npuready export` writes, checked by the vendors' own tools.

Per zoo model (trained on Fashion-MNIST), the float model is quantised as ``npuready export`` does
(LayerNormalization decomposed, minmax PTQ on stratified train images) and:
- lowered to INT8 TFLite and run on LiteRT's reference kernels beside the integer engine on test images
  (every int8 tensor compared; measured);
- compiled by Arm Vela for each Ethos-U mirror target; Vela's per-layer estimate beside npuready's
  simulated cost (both are models, neither is silicon), and the operators Vela left to the CPU, read from
  the optimised model it wrote (``cost.vela_placement``);
- run on Qualcomm's HTP backend (onnxruntime-qnn's x86 simulator) beside onnxruntime's CPU provider on
  the same QDQ model: which nodes HTP refuses and why, top-1 agreement with float and accuracy on the
  Fashion-MNIST test images (measured here, not on a Snapdragon), and where HTP first departs from the
  CPU provider tensor by tensor (``vendor.qnn_divergence``: beyond rounding, and grossly); a model with
  LayerNormalization is also run with the norm kept whole; next to it, the nodes npuready's
  ``nnapi-mirror`` target (an Android NPU driver's op list) leaves to the CPU;
- compiled by Rockchip's RKNN-Toolkit2 for each listed platform from the float model (its own INT8
  quantisation on the same calibration sample): its per-layer NPU/CPU placement and cycle estimate
  beside npuready's placement, and its simulator's top-1 agreement with float and accuracy.
Unit of work: one model.
"""
from __future__ import annotations

import tempfile
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np

from npuready.experiments.context import RunContext
from npuready.experiments.task import Task


def tasks(ctx: RunContext) -> list[Task]:
    return [Task(name, {"model": name}) for name in ctx.params["models"]]


def _float_top1(model, x: np.ndarray) -> np.ndarray:
    from npuready.verify.runners import run_float

    return run_float(model, x).argmax(-1)


def _cpu_nodes(graph, target_name: str, rep=None) -> list[dict[str, str]]:
    """The nodes npuready places off the NPU (``rep``: the cost report on that target, estimated when not given)."""
    from npuready.cost import estimate
    from npuready.targets import load_target

    rep = rep if rep is not None else estimate(graph, load_target(target_name))
    ops = {n.name: n.op_type for n in graph.nodes}
    return [{"node": layer.node, "op_type": ops.get(layer.node, "")} for layer in rep.layers
            if layer.device != "npu" and ops.get(layer.node) != "Constant"]


def _placement_vs_vela(graph, target_name: str, cpu_ops, rep=None) -> dict[str, Any]:
    """npuready's per-node placement on a Vela mirror beside Vela's own: a node is on Vela's CPU when an
    operator Vela left to the CPU writes one of its outputs (the int8 TFLite keeps the ONNX tensor names;
    ``#`` marks a helper tensor of a lowering and maps to the tensor before it) or a tensor of a rewrite of
    it (a decomposed LayerNorm's ``<node>/rstd``: named under the node). Operators that map to no node of
    the float graph are listed as ``vela_cpu_unmapped``."""
    ours = {r["node"] for r in _cpu_nodes(graph, target_name, rep)}
    producers = {o: n.name for n in graph.nodes for o in n.outputs if o}
    names = sorted((n.name for n in graph.nodes if n.name), key=len, reverse=True)

    def owner(tensor: str) -> str | None:
        t = tensor.split("#", 1)[0]
        return producers.get(t) or next((n for n in names if t.startswith(n + "/")), None)

    owners = {c.output: owner(c.output) for c in cpu_ops}
    theirs = {o for o in owners.values() if o is not None}
    nodes = [n.name for n in graph.nodes if n.op_type != "Constant"]
    agree = sum((n in ours) == (n in theirs) for n in nodes)
    return {"evidence": "npuready's mirror placement (simulated) vs Vela's compiled placement (its output file)",
            "nodes": len(nodes), "agreeing": agree, "agreement": round(agree / len(nodes), 6) if nodes else None,
            "npuready_cpu_vela_npu": sorted(ours - theirs), "vela_cpu_npuready_npu": sorted(theirs - ours),
            "vela_cpu_unmapped": sorted(t for t, o in owners.items() if o is None)}


def _rknn(ctx: RunContext, path: Path, calib: np.ndarray, test, platforms: list[str], graph) -> list[dict]:
    from npuready.vendor import rknn_toolkit

    if not platforms:
        return []
    if not rknn_toolkit.available():
        return [{"platform": p, "skipped": "RKNN-Toolkit2 not installed (make rknn-env)"} for p in platforms]
    ctx.tool("rknn-toolkit2", "2.5.0")
    float_top1 = _float_top1(graph.model, test.x)
    out = []
    for platform in platforms:
        r = rknn_toolkit.run(path, calib, test.x, platform)
        top1 = r.outputs[0].reshape(len(test.x), -1).argmax(1)
        layers = [x.to_dict() for x in r.layers]
        out.append({"evidence": "placement and cycles: RKNN's estimate (no device here); accuracy: its simulator, "
                                "measured", **r.summary(), "images": int(len(test.x)),
                    "top1_agreement_with_float": round(float(np.mean(top1 == float_top1)), 6),
                    "accuracy": round(float(np.mean(top1 == test.labels)), 6),
                    "layer_table": layers, "placement": _placement_vs_rknn(graph, platform, layers)})
    return out


def _placement_vs_rknn(graph, platform: str, layers: list[dict]) -> dict[str, Any] | None:
    """npuready's placement on the mirror target named after the platform (``rk3588``) beside librknnc's
    layer table (``vendor.rknn_placement``); None when npuready has no target of that name."""
    from npuready.targets import target_names
    from npuready.vendor import rknn_placement

    return _placement_vs(graph, platform, rknn_placement.compare, layers) if platform in target_names() else None


def _placement_vs(graph, target_name: str, compare, theirs) -> dict[str, Any]:
    """npuready's per-node placement on a vendor's mirror target beside the vendor's own (``compare`` of
    ``vendor.rknn_placement`` or ``vendor.qnn_placement``); each disagreement gains npuready's own reason for
    its placement (``targets.support``'s phrase)."""
    from npuready.cost import estimate
    from npuready.targets import load_target
    from npuready.targets.support import node_support

    target = load_target(target_name)
    devices = {layer.node: layer.device for layer in estimate(graph, target).layers}
    side = {"target": target_name, **compare(list(graph.nodes), devices, theirs)}
    by_name = {n.name: n for n in graph.nodes}
    for row in side["disagreements"]:
        row["npuready_reason"] = node_support(graph, by_name[row["node"]], target).how
    return side


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    from npuready.cost import estimate, vela
    from npuready.cost.vela_compare import compare
    from npuready.cost.vela_placement import placement
    from npuready.quant.decompose_layernorm import decompose_layernorm
    from npuready.engine.export import export_integer_graph
    from npuready.graph import load
    from npuready.quant.inputs import load_inputs
    from npuready.quant.ptq import quantize_model
    from npuready.quant.zoo_qdq import zoo_path
    from npuready.targets import load_target
    from npuready.tflite.export import export_int8_from_qdq
    from npuready.vendor import qnn_htp, qnn_placement
    from npuready.verify.litert_oracle import compare_with_litert

    p, name = ctx.params, args["model"]
    for dist in ("ai-edge-litert", "ethos-u-vela", "onnxruntime", "onnx", "numpy"):
        ctx.tool(dist, version(dist))
    seed = int(p.get("seed", 0))
    ctx.seed("calibration", seed)
    path = zoo_path(name)
    ctx.input(path)
    graph = load(path)
    shape = tuple(d if isinstance(d, int) else 1 for d in graph.inputs[0].shape)
    calib = load_inputs("fashion-mnist:train", int(p["calibration_images"]), shape, seed=seed).x
    test = load_inputs("fashion-mnist:test", int(p["test_images"]), shape, seed=seed)
    batches = [calib[i:i + 1] for i in range(len(calib))]
    probe_x = test.x[: int(p.get("divergence_images", 4))]  # HTP vs CPU tensor by tensor (qnn_divergence)
    model, decomposed = decompose_layernorm(graph.model)
    qdq = quantize_model(model, batches, p.get("method", "minmax"))
    intgraph = export_integer_graph(qdq)
    check_x = test.x[: int(p["check_images"])]
    oracle = compare_with_litert(qdq, check_x, intgraph, optimized=False, model_name=name)
    out: dict[str, Any] = {
        "evidence": "measured", "model": name, "layernorm_decomposed": decomposed,
        "litert_check": {"evidence": "measured", "inputs": int(len(check_x)),
                         "tensors_compared": oracle.tensors_compared,
                         "tensors_mismatched": oracle.tensors_mismatched}}
    tfl_bytes = export_int8_from_qdq(qdq)
    out["tflite_bytes"] = len(tfl_bytes)
    with tempfile.TemporaryDirectory(prefix="npuready-vendor-") as tmp:
        tfl = Path(tmp) / "model_int8.tflite"
        tfl.write_bytes(tfl_bytes)
        out["vela"] = []
        for tname in p["vela_targets"]:
            target = load_target(tname)
            rows, summary = vela.compile_tflite(tfl, target, Path(tmp) / tname)
            rep = estimate(graph, target)  # once per target: the cycles beside Vela's and the placement
            side = compare(graph, target, rows, summary, ours=rep)
            npu_ops, cpu_ops = placement(Path(tmp) / tname / f"{tfl.stem}_vela.tflite")
            out["vela"].append({"target": tname, "evidence": "simulated (npuready) vs Vela's estimate",
                                "ours_cycles": side["ours_cycles"], "reference_cycles": side["reference_cycles"],
                                "ratio": side["ratio"], "layers": len(side["layers"]),
                                "npu_custom_operators": npu_ops, "cpu_operators": [c.to_dict() for c in cpu_ops],
                                "placement": _placement_vs_vela(graph, tname, cpu_ops, rep)})
        qpath = Path(tmp) / "model_qdq.onnx"
        qpath.write_bytes(qdq.SerializeToString())
        if qnn_htp.available():
            ctx.tool("onnxruntime-qnn", "2.7.0")
            run = qnn_htp.run(qpath, test.x)
            float_top1 = _float_top1(graph.model, test.x)
            htp_top1 = run.htp[0].reshape(len(test.x), -1).argmax(1)
            cpu_top1 = run.cpu[0].reshape(len(test.x), -1).argmax(1)
            labels = test.labels
            out["qnn_htp"] = {
                "evidence": "measured (Qualcomm's HTP simulator for x86; not a Snapdragon)",
                "versions": run.versions, "images": int(len(test.x)), **run.placement.to_dict(),
                "top1_agreement_htp_vs_float": round(float(np.mean(htp_top1 == float_top1)), 6),
                "top1_agreement_cpu_qdq_vs_float": round(float(np.mean(cpu_top1 == float_top1)), 6),
                "top1_agreement_htp_vs_cpu_qdq": round(float(np.mean(htp_top1 == cpu_top1)), 6),
                "accuracy": {"float": round(float(np.mean(float_top1 == labels)), 6),
                             "htp": round(float(np.mean(htp_top1 == labels)), 6),
                             "cpu_qdq": round(float(np.mean(cpu_top1 == labels)), 6)}}
            from npuready.vendor.qnn_divergence import divergence

            out["qnn_htp"]["divergence"] = divergence(qdq, probe_x)
            if decomposed:  # the same calibration with LayerNormalization kept whole: HTP has a LayerNorm op
                kept = quantize_model(graph.model, batches, p.get("method", "minmax"))
                kpath = Path(tmp) / "model_qdq_layernorm_kept.onnx"
                kpath.write_bytes(kept.SerializeToString())
                krun = qnn_htp.run(kpath, test.x)
                k_top1 = krun.htp[0].reshape(len(test.x), -1).argmax(1)
                out["qnn_htp"]["layernorm_kept"] = {
                    "evidence": "measured (Qualcomm's HTP simulator for x86)", **krun.placement.to_dict(),
                    "top1_agreement_htp_vs_float": round(float(np.mean(k_top1 == float_top1)), 6),
                    "accuracy_htp": round(float(np.mean(k_top1 == labels)), 6),
                    "divergence": divergence(kept, probe_x)}
            # the float graph's node names survive quantisation only with the norm kept whole (the decomposed
            # LayerNorm's nodes are not float nodes): compare the run whose QDQ model mirrors the float graph
            htp_run = out["qnn_htp"].get("layernorm_kept", out["qnn_htp"])
            out["qnn_htp"]["placement"] = {"qdq_model": "layernorm kept whole" if decomposed else "the QDQ model",
                                           **_placement_vs(graph, "qnn-htp", qnn_placement.compare, htp_run)}
        else:
            out["qnn_htp"] = {"skipped": "Qualcomm's HTP backend not installed (make qnn-env)"}
    out["rknn"] = _rknn(ctx, path, calib, test, p.get("rknn_platforms", []), graph)
    out["npuready_cpu_nodes"] = {t: _cpu_nodes(graph, t) for t in p["placement_targets"]}
    return out


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    models = [outputs[k] for k in sorted(outputs)]
    ran = [m for m in models if "images" in m["qnn_htp"]]
    ratios = [v["ratio"] for m in models for v in m["vela"]]
    return {**{m["model"]: m for m in models},
            "summary": {"evidence": "measured", "models": len(models),
                        "tensors_mismatched_vs_litert": sum(m["litert_check"]["tensors_mismatched"] for m in models),
                        "tensors_compared_vs_litert": sum(m["litert_check"]["tensors_compared"] for m in models),
                        "vela_ratio_min": min(ratios) if ratios else None,
                        "vela_ratio_max": max(ratios) if ratios else None,
                        "vela_cpu_operators": sum(len(v["cpu_operators"]) for m in models for v in m["vela"]),
                        "vela_placement_agreement_min": min((v["placement"]["agreement"] for m in models
                                                             for v in m["vela"]), default=None),
                        "rknn_placement_agreement_min": min((r["placement"]["agreement"] for m in models
                                                             for r in m["rknn"] if r.get("placement")), default=None),
                        "htp_placement_agreement_min": min((m["qnn_htp"]["placement"]["agreement"]
                                                            for m in ran if "placement" in m["qnn_htp"]),
                                                           default=None),
                        "htp_models_all_on_htp": sum(1 for m in ran if not m["qnn_htp"]["refused"]),
                        "htp_models": len(ran)}}
