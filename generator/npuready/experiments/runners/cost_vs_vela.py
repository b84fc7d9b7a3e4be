"""Experiment `cost-vs-vela`: our mirror targets vs Arm Vela's performance estimate.

Each model (built-in examples + zoo exports) is exported to INT8 TFLite with ``npuready.tflite``
(TFLite's own calibrator on seeded random inputs: Vela's estimate depends on shapes, not values),
compiled by Vela for every Vela mirror target's reference system with ``--verbose-performance``, and
compared per Vela operator, per op category (conv, depthwise, pooling, add, fully connected) and in
total with ``npuready.cost.estimate(model, mirror)``. Unit of work: one model (all mirror targets), and the
pooling probes; the merge computes the summary.
"""
from __future__ import annotations

import dataclasses
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from npuready.cost import estimate, vela
from npuready.cost.vela_compare import compare
from npuready.cost.vela_gaps import gaps
from npuready.errors import InputError
from npuready.experiments.context import RunContext
from npuready.experiments.cost_models import cost_model, cost_model_names
from npuready.experiments.task import Task
from npuready.graph import load
from npuready.targets import load_target


def _int8_tflite(graph, seed: int, batches: int) -> bytes:
    from npuready.tflite import export_int8_calibrated

    rng = np.random.default_rng(seed)
    shapes = [tuple(i.shape) for i in graph.inputs]
    data = [[rng.standard_normal(s).astype(np.float32) for s in shapes] for _ in range(batches)]
    return export_int8_calibrated(graph, data)


# Mirror features, each switched off alone (and all together: "plain") to show what it contributes.
ABLATIONS = {
    "plain": {"channel_block": 0, "part_kernel_step": 0, "weight_load_cycles": 0, "dram_latency_cycles": 0,
              "global_pool_as_depthwise": False, "pool_ops_per_cycle": None, "elementwise_block_bytes": 0,
              "graph_inputs_in_dram": False, "pool_min_kernel": 0, "int32_elems_per_cycle": None,
              "mul32_elems_per_cycle": None, "weight_codec": "", "sram_latency_cycles": 0,
              "scratch_in_dram": False, "shram_banks": 0},
    "no_channel_block": {"channel_block": 0},
    "no_part_kernel": {"part_kernel_step": 0},
    "no_weight_load_floor": {"weight_load_cycles": 0},
    "no_dram_latency": {"dram_latency_cycles": 0},
    "no_mean_lowering": {"global_pool_as_depthwise": False},
    "no_probe_pool_rate": {"pool_ops_per_cycle": None},
    "no_const_reads": {"elementwise_block_bytes": 0},
    "no_pool_floor": {"pool_min_kernel": 0},
    "no_input_in_dram": {"graph_inputs_in_dram": False},
    "no_int32_rates": {"int32_elems_per_cycle": None, "mul32_elems_per_cycle": None},
    "no_weight_codec": {"weight_codec": ""},
    "no_column_latency": {"sram_latency_cycles": 0, "scratch_in_dram": False},
    "no_block_pipeline": {"shram_banks": 0},
}


def ablations(graph, target, rows: list[dict], summary: dict) -> dict[str, Any]:
    out = {}
    for name, change in ABLATIONS.items():
        res = compare(graph, dataclasses.replace(target, **change), rows, summary)
        out[name] = {"ratio": res["ratio"], "per_category": {c: v["ratio"] for c, v in res["per_category"].items()}}
    return out


def _pool_model(op: str, channels: int, size: int, kernel: int, stride: int):
    """1x1 conv -> pooling -> 1x1 conv, so the pooling reads and writes intermediate tensors (not model I/O)."""
    from onnx import TensorProto, helper, numpy_helper

    out = (size - kernel) // stride + 1
    rng = np.random.default_rng(channels * 1000 + size * 10 + kernel)
    w = [numpy_helper.from_array(rng.standard_normal((channels, channels, 1, 1)).astype(np.float32) / channels, f"w{i}")
         for i in range(2)]
    nodes = [helper.make_node("Conv", ["x", "w0"], ["a"], name="pre", kernel_shape=[1, 1]),
             helper.make_node(op, ["a"], ["pooled"], name="pool", kernel_shape=[kernel, kernel],
                              strides=[stride, stride]),
             helper.make_node("Conv", ["pooled", "w1"], ["y"], name="post", kernel_shape=[1, 1])]
    graph = helper.make_graph(nodes, "pool_probe",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, size, size])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, channels, out, out])], w)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def pool_probes(probes: list[list], targets: list[str], seed: int, tmp: Path) -> list[dict]:
    """Pooling layers between two 1x1 convs through Vela and our mirrors: how Vela's pooling cost scales.
    Only the pooling row of Vela's per-layer CSV and our pooling node are compared."""
    rows = []
    for i, (op, channels, size, kernel, stride) in enumerate(probes):
        graph = load(_pool_model(op, channels, size, kernel, stride))
        tfl = tmp / f"probe{i}.tflite"
        tfl.write_bytes(_int8_tflite(graph, seed, 2))
        out_elems = graph.info("pooled").numel
        for tname in targets:
            target = load_target(tname)
            vrows, _ = vela.compile_tflite(tfl, target, tmp / f"probe{i}_{tname}")
            ref = sum(int(r["Op Cycles"]) for r in vrows if r["Name"] == "pooled")
            ours = next(layer.cycles for layer in estimate(graph, target).layers if layer.node == "pool")
            rows.append({"op": op, "channels": channels, "size": size, "kernel": kernel, "stride": stride,
                         "target": tname, "output_elems": out_elems, "ours_cycles": ours, "reference_cycles": ref,
                         "reference_cycles_per_output": round(ref / out_elems, 4),
                         "ratio": round(ours / ref, 6) if ref else None,
                         "vela_ops": [r["NNG Operator"] for r in vrows if r["Name"] == "pooled"]})
    return rows


def _setup(ctx: RunContext) -> tuple[int, list[str]]:
    import importlib.metadata

    ctx.tool("ethos-u-vela", vela.version())
    ctx.tool("ai-edge-litert", importlib.metadata.version("ai-edge-litert"))
    seed = ctx.seed("calibration", int(ctx.params.get("seed", 0)))
    return seed, list(ctx.params.get("targets", ["ethos-u55-128", "ethos-u65-256"]))


LIBRARY = "library:"


def library_names(ctx: RunContext) -> list[str]:
    """``params.library`` recipes (``npuready models list``), keyed ``library:NAME``."""
    return [f"{LIBRARY}{name}" for name in ctx.params.get("library", [])]


def library_model(ctx: RunContext, key: str) -> Any:
    """A ``library:NAME`` recipe built with random weights (torch seed 0) and exported to ONNX at
    ``params.library_image_size`` pixels (cached)."""
    from npuready.experiments.runners.model_report import record_tools
    from npuready.models.library.export import cached_onnx

    name = key[len(LIBRARY):]
    ctx.seed("torch.manual_seed (library recipes)", 0)
    record_tools(ctx, name)
    return cached_onnx(name, image_size=int(ctx.params.get("library_image_size", 128)))


def tasks(ctx: RunContext) -> list[Task]:
    """One task per model (exported once, compiled for every mirror target), one for the pooling probes."""
    names = cost_model_names(ctx) + library_names(ctx)
    return [Task(f"model:{name}", {"model": name}) for name in names] + [Task("pool_probes")]


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    seed, targets = _setup(ctx)
    with tempfile.TemporaryDirectory(prefix="npuready-vela-") as tmp:
        if "model" not in args:
            return {"probes": pool_probes(list(ctx.params.get("pool_probes", [])), targets, seed, Path(tmp))}
        name = args["model"]
        graph = load(library_model(ctx, name) if name.startswith(LIBRARY) else cost_model(ctx, name))
        tfl = Path(tmp) / f"{name}.tflite"
        try:
            tfl.write_bytes(_int8_tflite(graph, seed, int(ctx.params.get("calibration_batches", 4))))
        except InputError as exc:  # the exporter cannot express this model: say so, keep going
            return {"skipped": {"model": name, "reason": f"INT8 TFLite export: {exc}"}}
        out = []
        for tname in targets:
            target = load_target(tname)
            rows, summary = vela.compile_tflite(tfl, target, Path(tmp) / tname)
            out.append({"model": name, "target": tname, **compare(graph, target, rows, summary),
                        "ablations": ablations(graph, target, rows, summary)})
        return {"models": out}


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    out = [m for o in outputs.values() for m in o.get("models", [])]
    skipped = [o["skipped"] for o in outputs.values() if "skipped" in o]
    probes = outputs.get("pool_probes", {}).get("probes", [])
    cats: dict[str, list[float]] = defaultdict(list)
    for m in out:
        for cat, v in m["per_category"].items():
            if v["ratio"] is not None:
                cats[cat].append(v["ratio"])
    ratios = [m["ratio"] for m in out]
    return {
        "comparison": {
            "evidence": "simulated",
            "what": "NPU cycles per inference: npuready.cost on the mirror target vs Vela's --verbose-performance "
                    "estimate for the same INT8 model on the mirrored system; both are estimates, neither is silicon",
            "models": out,
            "skipped": skipped,
        },
        "pool_probes": {
            "evidence": "simulated",
            "what": "MaxPool/AveragePool probes (op, channels, input size, kernel, stride) between two 1x1 convs, "
                    "pooling row only, through Vela and our mirrors, to see how Vela's pooling estimate scales; "
                    "not part of the totals above",
            "rows": probes,
        },
        "summary": {
            "evidence": "simulated",
            "pairs": len(out),
            "total_ratio_min": round(min(ratios), 6) if ratios else None,
            "total_ratio_max": round(max(ratios), 6) if ratios else None,
            "category_ratio_range": {c: [round(min(v), 6), round(max(v), 6)] for c, v in sorted(cats.items())},
            "goal": "totals within 0.8-1.2x of Vela, no op category off by more than 2x",
            "totals_goal_met": all(0.8 <= r <= 1.2 for r in ratios),
            "categories_goal_met": all(0.5 <= r <= 2.0 for v in cats.values() for r in v),
        },
        "open_gaps": {"evidence": "simulated", **gaps(out)},
    }
