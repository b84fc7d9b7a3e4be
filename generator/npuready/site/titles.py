"""Human column titles and units for the JSON keys that become table columns on the site.

The result schema (``experiments/schema.py``) fixes the envelope of a result (id, provenance, timing, …) but leaves
each section free-form with no per-key descriptions, so this explicit registry is where a stored key gets its
title and unit. A nested column (``ort.partitions``, ``recipe.lr``) is titled part by part. A key missing here is
still shown (humanised), and ``tests/site/test_titles.py`` fails until it is registered.
"""
from __future__ import annotations

from markupsafe import Markup

# key → (title, unit); unit "" when the value has none (counts, names, fractions shown as stored)
TITLES: dict[str, tuple[str, str]] = {
    # identity
    "model": ("Model", ""), "target": ("Target", ""), "name": ("Name", ""), "id": ("Id", ""), "node": ("Node", ""),
    "op": ("Op", ""), "op_type": ("Op type", ""), "op_types": ("Op types", ""), "kind": ("Kind", ""),
    "category": ("Category", ""), "group": ("Group", ""), "title": ("Title", ""), "description": ("Description", ""),
    "method": ("Method", ""), "strategy": ("Strategy", ""), "criterion": ("Criterion", ""), "stage": ("Stage", ""),
    "tensor": ("Tensor", ""), "layer": ("Layer", ""), "layers": ("Layers", ""), "array": ("MAC array", ""),
    "input": ("Input", ""), "output": ("Output", ""), "photo": ("Photo", ""), "where": ("Where", ""),
    "old": ("Before", ""), "new": ("After", ""), "library": ("Library", ""), "constructor": ("Constructor", ""),
    "seed": ("Random seed", ""), "task": ("Task", ""), "case": ("Case", ""), "preset": ("Preset", ""),
    "combination": ("Combination", ""), "injection": ("Injection", ""), "probe": ("Probe", ""),
    "rule": ("Rule", ""), "rules": ("Rules", ""), "severity": ("Severity", ""), "type": ("Type", ""),
    "key": ("Key", ""), "value": ("Value", ""), "unit": ("Unit", ""), "notes": ("Notes", ""),
    "explanation": ("Explanation", ""), "basis": ("Basis", ""), "why": ("Why", ""), "how": ("How", ""),
    "what": ("What", ""), "meaning": ("Meaning", ""), "error": ("Error", ""), "order": ("Order", ""),
    "opset": ("Opset", ""), "verdict": ("Verdict", ""), "edges": ("Edge placement", ""),
    "rounding": ("Rounding", ""), "kernel": ("Kernel", ""), "pipeline": ("Pipeline", ""),
    "placement_source": ("Placement from", ""), "target_kind": ("Target kind", ""), "settings": ("Settings", ""),
    "input_dtype": ("Input dtype", ""), "input_shapes": ("Input shapes", ""), "output_shapes": ("Output shapes", ""),
    "npuready": ("npuready", ""), "ort": ("onnxruntime", ""), "ort_optimized": ("onnxruntime, optimized graph", ""),
    "recipe": ("Recipe", ""), "budget": ("Budget", ""), "parts": ("Parts", ""), "segments": ("Segments", ""),
    "splitters": ("Splitting ops", ""), "missing_cpu_code": ("Missing CPU code", ""),
    "node_differences": ("Node differences", ""), "unsupported_ops": ("Unsupported ops", ""),
    "vela_operator": ("Vela operator", ""), "ours_bound": ("Our bound", ""), "error_rules": ("ERROR rules", ""),
    "risk_kinds": ("Risk kinds", ""), "top_layer_op": ("Top layer op", ""), "kinds": ("Kinds", ""),
    "expected": ("Expected", ""), "recommended": ("Recommended", ""), "automatic": ("Automatic", ""),
    "accepted": ("Accepted", ""), "loaded": ("Loaded", ""), "blocked": ("Blocked", ""),
    "within_tolerance": ("Within tolerance", ""), "meets_target": ("Meets target", ""),
    "compute_bound": ("Compute-bound", ""), "memory_bound": ("Memory-bound", ""),
    "allowed_activations": ("Allowed activations", ""),
    "allowed_without_passing_probe": ("Allowed without a passing probe", ""),
    "augment": ("Augmentation", ""), "optimizer": ("Optimizer", ""), "weights": ("Weight quantization", ""),
    "blind": ("Detected without spec", ""), "compared": ("Compared", ""),
    # counts
    "errors": ("Lint ERRORs", ""), "warnings": ("Lint WARNs", ""), "lint_errors": ("Lint ERRORs", ""),
    "npu_segments": ("NPU segments", ""), "cpu_computations": ("CPU computations", ""),
    "cpu_nodes": ("CPU nodes", ""), "npu_nodes": ("NPU nodes", ""), "folded_nodes": ("Folded nodes", ""),
    "partitions": ("Partitions", ""), "supported_nodes": ("Supported nodes", ""), "total_nodes": ("Total nodes", ""),
    "nodes": ("Nodes", ""), "tensors": ("Tensors", ""), "elements": ("Elements", ""), "images": ("Images", ""),
    "convs": ("Convs", ""), "channels": ("Channels", ""), "risks_high": ("High risks", ""), "epochs": ("Epochs", ""),
    "batch": ("Batch size", ""), "ops": ("Ops", ""), "parameters": ("Parameters", ""), "threads": ("Threads", ""),
    "vela_ops": ("Vela ops", ""), "layers_cpu": ("Layers on CPU", ""),
    "mismatch_local": ("Mismatched elements, local", ""),
    "mismatch_propagated": ("Mismatched elements, propagated", ""),
    "mismatched_local": ("Mismatched tensors, local", ""),
    "mismatched_propagated": ("Mismatched tensors, propagated", ""),
    "images_with_mismatch": ("Images with a mismatch", ""), "jitter_with_spec": ("±1 LSB jitter with spec", ""),
    "with_spec": ("With spec", ""), "ofm_elems": ("Output elements", ""),
    "tensors_compared": ("Tensors compared", ""), "tensors_mismatched": ("Tensors mismatched", ""),
    "elements_mismatched": ("Elements mismatched", ""),
    "cpp_tensors_mismatched": ("C++ vs NumPy tensors mismatched", ""),
    "integer_ops": ("Integer ops", ""), "top1_agreement_integer_vs_float": ("Top-1 agreement, integer vs float", "0–1"),
    "load_1min_before": ("Load average before (1 min)", ""), "load_1min_after": ("Load average after (1 min)", ""),
    "builtin_mismatched": ("LiteRT BUILTIN mismatched", ""), "xnnpack_mismatched": ("LiteRT XNNPACK mismatched", ""),
    "builtin_local_declared": ("BUILTIN local, declared rounding", ""),
    "builtin_local_single": ("BUILTIN local, single rounding", ""),
    "xnnpack_local_declared": ("XNNPACK local, declared rounding", ""),
    "xnnpack_local_single": ("XNNPACK local, single rounding", ""),
    # cost
    "cycles": ("Cycles", "cycles"), "npu_cycles": ("NPU cycles", "cycles"), "ours_cycles": ("Our cycles", "cycles"),
    "reference_cycles": ("Reference cycles", "cycles"), "ours_unmatched_cycles": ("Our unmatched cycles", "cycles"),
    "macs": ("MACs", ""), "total_macs": ("Total MACs", ""), "npu_mac_share": ("NPU share of MACs", "0–1"),
    "utilisation": ("MAC-array utilisation", "0–1"), "top_layer_share": ("Top layer share", "0–1"),
    "ratio": ("Ratio ours / reference", "×"), "energy_uj": ("Energy", "µJ"), "tops": ("Peak", "TOPS"),
    "transfer_bytes": ("CPU↔NPU transfer", "bytes"),
    "transfer_bytes_per_inference": ("CPU↔NPU transfer per inference", "bytes"),
    "inferences_per_s": ("Inferences per second", "1/s"), "latency_s": ("Latency", "s"), "host_s": ("Host time", "s"),
    "seconds": ("Seconds", "s"), "clock": ("Clock", "MHz"),
    "train_seconds": ("Training time", "s"), "train_cpu_seconds": ("Training CPU time", "s"),
    # accuracy and error
    "torch_accuracy": ("PyTorch top-1", "0–1"), "onnx_accuracy": ("ONNX top-1", "0–1"),
    "torch_map50": ("PyTorch mAP50", "0–1"), "onnx_map50": ("ONNX mAP50", "0–1"),
    "per_class_ap50": ("Per-class AP50", "0–1"), "top1_agree": ("Top-1 agreement", "0–1"),
    "max_abs_diff": ("Max abs difference", ""), "mean_max_abs_diff": ("Mean of max abs difference", ""),
    "max_abs_output": ("Max abs output", ""), "max_abs_local": ("Max abs error, local", "LSB"),
    "max_abs_propagated": ("Max abs error, propagated", "LSB"),
    "builtin_max_abs": ("LiteRT BUILTIN max abs", "LSB"), "optimized_max_abs": ("LiteRT optimized max abs", "LSB"),
    "optimized_mismatched": ("LiteRT optimized mismatched", ""), "xnnpack_max_abs": ("LiteRT XNNPACK max abs", "LSB"),
    "accuracy": ("Top-1 accuracy", "0–1"), "top1_agreement_with_float": ("Top-1 agreement with float", "0–1"),
    # vendor toolchains
    "platform": ("Platform", ""), "version": ("Version", ""), "reason": ("Reason", ""),
    "evidence": ("Evidence", ""), "npu_layers": ("Layers on the NPU", ""), "cpu_layers": ("Layers on the CPU", ""),
    "layer_table": ("Per-layer table", ""), "total_cycles": ("Total cycles", "cycles"),
    "ddr_cycles": ("DDR cycles", "cycles"),
    "label_smoothing": ("Label smoothing", ""), "lr": ("Learning rate", ""), "weight_decay": ("Weight decay", ""),
    # mixed precision (sensitivity, --keep-float)
    "build": ("Build", ""), "kept": ("Layers kept float", ""), "extra_cycles": ("Cycles added", "cycles"),
    "extra_transfer_bytes": ("CPU↔NPU bytes added", "bytes"), "extra_segments": ("Segments added", ""),
    "metric_float": ("Metric, layer kept float", ""), "metric_output": ("Metric, output unrounded", ""),
    "gain_float": ("Gain, layer kept float", ""), "gain_output": ("Gain, output unrounded", ""),
    "sqnr_db": ("SQNR", "dB"), "costs": ("Costs per target", ""), "cycles_int8": ("Cycles, all INT8", "cycles"),
    "metric": ("Metric", ""), "gain": ("Gain", ""), "layer_count": ("Layers", ""),
    "kept_float_nodes": ("Nodes run float", ""), "model_sha256": ("Model SHA-256", ""),
    "test_goal": ("Goal on test images", ""), "test_meets_goal": ("Test images meet goal", ""),
    "reached_on_holdout": ("Reached on held-out", ""), "metric_holdout": ("Metric, held-out", ""),
    "metric_holdout_se": ("Its standard error", ""), "metric_test": ("Metric, test images", ""),
    "metric_test_se": ("Its standard error", ""), "holdout_images": ("Held-out images", ""),
    "test_images": ("Test images", ""), "gap": ("Held-out minus test", ""), "noise": ("Noise of the gap", ""),
    # vendor toolchains' placement and per-op error
    "placement": ("Placement", ""), "agreement": ("Agreement", ""), "agreeing": ("Nodes agreeing", ""),
    "cause": ("Cause", ""), "htp": ("Qualcomm HTP", ""), "npuready_reason": ("npuready's reason", ""),
    "agreeing_with_layers": ("Nodes agreeing, own layer", ""), "cpu_helper_layers": ("CPU helper layers", ""),
    "disagreements": ("Disagreements", ""), "io_layers": ("Input/output layers", ""),
    "nodes_folded_by_both": ("Nodes folded by both", ""), "nodes_fused_inferred": ("Nodes fused (inferred)", ""),
    "nodes_with_layers": ("Nodes with an own layer", ""), "unmapped_layers": ("Layers matching no node", ""),
    "cpu_operators": ("Vela CPU operators", ""), "npu_custom_operators": ("Vela NPU operators", ""),
    "npuready_cpu_vela_npu": ("npuready CPU, Vela NPU", ""), "vela_cpu_npuready_npu": ("Vela CPU, npuready NPU", ""),
    "vela_cpu_unmapped": ("Vela CPU operators matching no node", ""),
    "vela_cpu_operators_ethos-u55-128": ("Vela CPU operators, ethos-u55-128", ""),
    "vela_cpu_operators_ethos-u65-256": ("Vela CPU operators, ethos-u65-256", ""),
    "sqnr_in_db": ("SQNR of its input", "dB"), "drop_db": ("SQNR drop across it", "dB"),
}


def title(key: str) -> tuple[str, str]:
    """(title, unit) of a column key; a dotted key is titled part by part (``ort.partitions`` →
    ``onnxruntime · Partitions``); list positions stay as they are; an unknown part is humanised."""
    if key in TITLES:
        return TITLES[key]
    parts = key.split(".")
    named = [TITLES.get(p, (p.replace("_", " "), "")) for p in parts]
    return " · ".join(t for t, _u in named), next((u for _t, u in reversed(named) if u), "")


def untitled(key: str) -> list[str]:
    """The parts of ``key`` that have no registered title (list positions need none)."""
    if key in TITLES:
        return []
    return [p for p in key.split(".") if p not in TITLES and not p.isdigit()]


def header(key: str) -> Markup:
    """A column header: the title, its unit in parentheses, the stored key on hover."""
    name, unit = title(key)
    unit_html = Markup(' <span class="unit">({})</span>').format(unit) if unit else Markup("")
    return Markup('<span class="col" data-key="{k}" title="stored as {k}">{t}</span>{u}').format(k=key, t=name,
                                                                                                 u=unit_html)
