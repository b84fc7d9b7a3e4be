"""Prescribe: ordered actions with their expected effect, computed from the diagnosis.

Order: what blocks deployment first (dynamic axes, post-processing in the graph, unsupported
activations, unfoldable norms, other ERROR rules), then speed (array-aligned pruning), then
quantisation (per-channel weights, calibration size). Expected cycles are simulated by the cost
model on a rewritten copy of the graph (``intake.whatif``) or, for pruning, proportional to the
array passes saved; lint counts are exact for the rewritten graph.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from npuready.graph import families
from npuready.intake.diagnosis import Diagnosis
from npuready.intake.risks import INT8_LEVELS
from npuready.intake.whatif import (bypass, equivalent, measure, replacement_op, rewrite_equivalents, swap_ops,
                                    used_tensors)
from npuready.targets import Target, load_target

POSTPROCESS_OPS = families.POSTPROCESS
# Element-wise activations a swap can replace (Softmax/Exp are not activations one swaps: they stay ERRORs).
SWAPPABLE = frozenset({"Erf", "Gelu", "Sigmoid", "Tanh", "HardSwish", "HardSigmoid", "Elu", "Selu", "Celu",
                       "Softplus", "Softsign", "Mish", "Swish", "ThresholdedRelu", "Shrink"})
CALIB_PER_CLASS = 10
CALIB_MIN, CALIB_MAX, CALIB_DEFAULT = 100, 500, 200


@dataclass(frozen=True)
class Action:
    id: str
    title: str
    why: str
    expected: str                     # the expected effect in words, numbers computed here
    effect: Mapping[str, Any] = field(default_factory=dict)
    nodes: tuple[str, ...] = ()
    automatic: bool = False           # `npuready intake --apply` performs it on zoo models
    recommended: bool = True          # False: an action the numbers advise against
    evidence: str = "simulated"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "why": self.why, "expected": self.expected,
                "effect": dict(self.effect), "nodes": list(self.nodes), "automatic": self.automatic,
                "recommended": self.recommended, "evidence": self.evidence}


def calibration_images(diag: Diagnosis) -> tuple[int, int | None]:
    """(N, classes): 10 per class for a [1, C] output, clamped to 100..500; 200 when there is no class axis."""
    out = diag.outputs[0] if diag.outputs else {}
    shape = out.get("shape")
    if str(out.get("dtype", "")).startswith("float") and shape and len(shape) == 2 and shape[0] == 1 \
            and isinstance(shape[1], int) and shape[1] > 1:
        classes = shape[1]
        return max(CALIB_MIN, min(CALIB_MAX, CALIB_PER_CLASS * classes)), classes
    return CALIB_DEFAULT, None


def _measured(diag: Diagnosis, target, rewrite) -> tuple[dict, dict] | str:
    """(before, after) of a rewrite, or the reason the rewritten graph could not be measured."""
    from npuready.errors import InputError

    try:
        return measure(diag.graph.model, target), measure(rewrite(diag.graph.model), target)
    except InputError as exc:
        return f"not simulated: {exc}"


def _errors_on(diag: Diagnosis, nodes: set[str], rules: "set[str] | None" = None) -> int:
    return sum(1 for f in diag.lint.errors if f.node in nodes and (rules is None or f.rule in rules))


def _fix_dynamic(diag: Diagnosis) -> list[Action]:
    found = [f for f in diag.lint.errors if f.rule in ("R001a", "R001b")]
    if not found:
        return []
    where = sorted({f.node for f in found})
    return [Action("fix-dynamic-axes", "Export with static shapes (batch 1)",
                   "the NPU compiler lays out memory statically; a symbolic or batched input dimension stops it",
                   f"clears {len(found)} ERROR(s) ({', '.join(sorted({f.rule for f in found}))}); re-export without "
                   "dynamic_axes or pin the dims (onnxruntime.tools.make_dynamic_shape_fixed)",
                   {"lint_errors_cleared": len(found)}, tuple(where), evidence="analysis")]


def _tail_nodes(diag: Diagnosis) -> list[str]:
    segs = diag.partition.get("segments", [])
    tail = [n for s in segs if s["name"] == "tail" for n in s["nodes"]]
    by = {n.name: n for n in (diag.graph.nodes if diag.graph else ())}
    r002 = [f.node for f in diag.lint.errors if f.rule == "R002"]
    return list(dict.fromkeys([n for n in tail if n in by and by[n].op_type in POSTPROCESS_OPS] + r002))


def _move_out(diag: Diagnosis, target) -> list[Action]:
    nodes = _tail_nodes(diag)
    if not nodes:
        return []
    code = {i["node"]: i for i in diag.partition.get("cpu_code", [])}
    by = {n.name: n for n in diag.graph.nodes}
    ops = sorted({by[n].op_type for n in nodes})
    missing = [n for n in nodes if n in code and code[n]["cpu_function"] is None]
    cleared = _errors_on(diag, set(nodes))
    host = sum(h["cycles"] for h in diag.host_layers if h["node"] in nodes)
    fns = sorted({code[n]["cpu_function"] for n in nodes if n in code and code[n]["cpu_function"]})
    return [Action("move-postprocess-out", f"Move {', '.join(ops)} out of the graph (CPU post-processing)",
                   "post-processing (score sigmoid, NMS, argmax) has data-dependent or table-bound work; export the "
                   "logits and run it in the runtime, as detector and landmark pipelines usually do",
                   f"clears {cleared} ERROR(s); {host} simulated host cycles move from the graph to the runtime; "
                   f"CPU code: {', '.join(fns) or 'none needed'}" + (f"; MISSING CPU code for {', '.join(missing)}"
                                                                   if missing else ""),
                   {"lint_errors_cleared": cleared, "host_cycles_moved": host, "cpu_functions": fns,
                    "missing_cpu_code": missing}, tuple(nodes))]


def _swap(diag: Diagnosis, target, moved: set[str]) -> list[Action]:
    nodes = [f.node for f in diag.lint.errors
             if f.rule == "R005" and f.op_type in SWAPPABLE and f.node not in moved and not f.graph]
    nodes = list(dict.fromkeys(nodes))
    if not nodes:
        return []
    new = replacement_op(target)
    if new is None:
        return []
    pair = _measured(diag, target, lambda m: swap_ops(m, nodes, new))
    from npuready.intake.whatif import gelu_span

    ops = sorted({"GELU (Erf pattern)" if diag.graph.node(n).op_type == "Erf" and gelu_span(diag.graph, n)
                  else diag.graph.node(n).op_type for n in nodes})
    shown = {"Clip": "ReLU6 (Clip)", "Relu": "ReLU", "HardSwish": "HardSwish"}[new]
    why = (f"{target.name} runs {', '.join(ops)} on the host; every one splits the NPU body and adds two "
           "transfers. Swap and recover accuracy with a short fine-tune")
    title = f"Swap {', '.join(ops)} → {shown}"
    if isinstance(pair, str):
        return [Action("swap-activation", title, why, pair, {"replacement": new}, tuple(nodes), automatic=True)]
    before, after = pair
    return [Action("swap-activation", title, why,
                   f"lint ERRORs {before['lint_errors']} → {after['lint_errors']}, NPU segments "
                   f"{before['npu_segments']} → {after['npu_segments']}, simulated cycles {before['cycles']} → "
                   f"{after['cycles']} (nodes replaced in place; accuracy needs retraining to tell)",
                   {"replacement": new, "before": before, "after": after,
                    "cycles_saved": before["cycles"] - after["cycles"]}, tuple(nodes), automatic=True)]


def _norms(diag: Diagnosis, target) -> list[Action]:
    """Run-time norms (LayerNorm, InstanceNorm, ...) the target cannot run: replace them by BatchNorm. A BatchNorm
    ERROR is never answered with "replace by BatchNorm": it is already one; it needs to fold (or run unfolded)."""
    found = [f for f in diag.lint.errors if f.rule == "R006" and not f.graph]
    nodes = list(dict.fromkeys(f.node for f in found if f.op_type != "BatchNormalization"))
    return _replace_norms(diag, target, nodes) + _fold_batchnorms(
        target, list(dict.fromkeys(f.node for f in found if f.op_type == "BatchNormalization")))


def _fold_batchnorms(target, nodes: list[str]) -> list[Action]:
    if not nodes:
        return []
    return [Action("fold-batchnorm", "Place each BatchNorm directly after its Conv/Gemm (inference mode) so it folds",
                   f"these BatchNorms follow another op (or run in training mode), so they do not fold into weights, "
                   f"and {target.name} does not run an unfolded BatchNorm (its [norms] table)",
                   f"clears {len(nodes)} ERROR(s); a folded BatchNorm costs nothing at inference",
                   {"lint_errors_cleared": len(nodes)}, tuple(nodes), evidence="analysis")]


def _replace_norms(diag: Diagnosis, target, nodes: list[str]) -> list[Action]:
    if not nodes:
        return []
    pair = _measured(diag, target, lambda m: bypass(m, nodes))
    if isinstance(pair, str):
        return [Action("replace-norm", "Replace run-time norms by BatchNorm (folds into the conv) and retrain",
                       "LayerNorm/InstanceNorm/GroupNorm compute statistics at run time and do not fold into weights",
                       f"clears {len(nodes)} ERROR(s); cycles {pair}", {"lint_errors_cleared": len(nodes)},
                       tuple(nodes))]
    before, after = pair
    return [Action("replace-norm", "Replace run-time norms by BatchNorm (folds into the conv) and retrain",
                   "LayerNorm/InstanceNorm/GroupNorm compute statistics at run time and do not fold into weights",
                   f"clears {len(nodes)} ERROR(s); at most {before['cycles'] - after['cycles']} simulated cycles saved "
                   f"(norms removed entirely: {before['cycles']} → {after['cycles']}), NPU segments "
                   f"{before['npu_segments']} → {after['npu_segments']}",
                   {"lint_errors_cleared": len(nodes), "before": before, "after_upper_bound": after,
                    "cycles_saved_upper_bound": before["cycles"] - after["cycles"]}, tuple(nodes))]


def _other_errors(diag: Diagnosis, handled: set[str]) -> list[Action]:
    from npuready.lint.registry import RULES

    rest: dict[str, list[str]] = {}
    for f in diag.lint.errors:
        if f.rule not in ("R001a", "R001b", "R006") and f.node not in handled:
            rest.setdefault(f.rule, []).append(f.node)
    return [Action(f"fix-{rid.lower()}", f"Fix {rid}: {RULES[rid].title}", RULES[rid].why,
                   f"clears {len(nodes)} ERROR(s). {RULES[rid].fix}", {"lint_errors_cleared": len(nodes)},
                   tuple(nodes), evidence="analysis") for rid, nodes in rest.items()]


def _splitters(diag: Diagnosis, target, handled: set[str]) -> list[Action]:
    """CPU nodes between NPU segments that no lint rule names (ops outside the target's table)."""
    split = [(s["node"], s["op_type"]) for s in diag.partition.get("splitters", []) if s["node"] not in handled]
    if not split:
        return []
    protos = {n.name: n.proto for n in diag.graph.nodes}
    used = used_tensors(diag.graph.model)
    exact = [n for n, _ in split if protos.get(n) is not None and equivalent(protos[n], used)]
    actions = []
    pair = _measured(diag, target, lambda m: rewrite_equivalents(m, exact)) if exact else None
    if isinstance(pair, str):
        exact = []
    if exact:
        before, after = pair
        eq_ops = sorted({f"{diag.graph.node(n).op_type} → {equivalent(protos[n], used)}" for n in exact})
        actions.append(Action("rewrite-equivalent-ops", f"Rewrite {', '.join(eq_ops)} (exact at inference)",
                              f"{target.name} has no {', '.join(sorted({diag.graph.node(n).op_type for n in exact}))} "
                              "in its op table; the equivalent op keeps the NPU body in one piece",
                              f"NPU segments {before['npu_segments']} → {after['npu_segments']}, simulated cycles "
                              f"{before['cycles']} → {after['cycles']} (graph rewrite, no retraining)",
                              {"before": before, "after": after, "cycles_saved": before["cycles"] - after["cycles"]},
                              tuple(exact)))
    rest = [n for n, _ in split if n not in exact]
    if rest:
        rest_ops = sorted({op for n, op in split if n in rest})
        actions.append(Action("replace-unsupported-ops", f"Replace {', '.join(rest_ops)} by ops {target.name} runs",
                              "each CPU node between NPU segments splits the compiled body and adds two transfers",
                              f"{len(rest)} splitting node(s) ({', '.join(rest_ops)}); "
                              f"{diag.partition.get('npu_segments', 0)} NPU segments now",
                              {"splitters": len(rest)}, tuple(rest), evidence="analysis"))
    return actions


def _prune(diag: Diagnosis, target) -> list[Action]:
    cols = target.array_cols
    cycles = {h["node"]: h["cycles"] for h in diag.to_dict()["hotspots"]}
    layer_cycles = _layer_cycles(diag)
    rows, saved = [], 0
    for f in diag.lint.by_rule("R004"):
        c = int(f.evidence["value"])
        tiles = -(-c // cols)
        keep = (c // cols) * cols if c > cols else c
        after = -(-keep // cols)
        gain = round(layer_cycles.get(f.node, cycles.get(f.node, 0)) * (1 - after / tiles))
        saved += gain
        rows.append({"node": f.node, "channels": c, "aligned": keep, "passes": tiles, "passes_after": after,
                     "cycles_saved_estimate": gain})
    if not rows:
        return []
    narrow = sum(1 for r in rows if r["channels"] <= cols)
    if saved == 0:
        return [Action("prune-aligned", f"Do not prune channels below the {cols}-column array",
                       "pruning cuts MACs, but a layer narrower than the array already takes one pass",
                       f"{narrow} of {len(rows)} misaligned layers are narrower than {cols} channels: pruning them "
                       "saves MACs but 0 simulated cycles on this target", {"layers": rows, "cycles_saved": 0},
                       tuple(r["node"] for r in rows), recommended=False)]
    gaining = sum(1 for r in rows if r["passes_after"] < r["passes"])
    return [Action("prune-aligned", f"Prune output channels down to multiples of {cols} (array-aligned)",
                   "a partly filled last pass of the array costs a full pass; removing the overhang saves a pass",
                   f"about {saved} simulated cycles saved over {gaining}"
                   f" layer(s) (proportional to array passes; {narrow} layer(s) narrower than {cols} gain nothing); "
                   "recover accuracy with a fine-tune", {"layers": rows, "cycles_saved": saved},
                   tuple(r["node"] for r in rows if r["passes_after"] < r["passes"]))]


def _layer_cycles(diag: Diagnosis) -> dict[str, int]:
    from npuready.cost import estimate
    from npuready.errors import InputError

    try:
        return {la.node: int(la.cycles) for la in estimate(diag.graph, diag.target).layers}
    except InputError:
        return {}


def _per_channel(diag: Diagnosis) -> list[Action]:
    wide = [r for r in diag.risks if r.kind == "wide-weight-range"]
    if not wide:
        return []
    worst = max(wide, key=lambda r: r.evidence["ratio"])
    return [Action("per-channel-weights", "Quantise weights per output channel",
                   "one int8 scale per tensor leaves the narrowest channels only a few levels",
                   f"{len(wide)} layer(s) with wide channel ranges; worst {worst.node}: narrowest channel "
                   f"{worst.evidence['narrowest_levels_per_tensor']} → {INT8_LEVELS} levels",
                   {"layers": len(wide), "worst": worst.node, "worst_ratio": worst.evidence["ratio"]},
                   tuple(r.node for r in wide), automatic=True, evidence="analysis")]


def _calibrate(diag: Diagnosis) -> list[Action]:
    n, classes = calibration_images(diag)
    per = f"{CALIB_PER_CLASS} per class × {classes} classes, clamped to {CALIB_MIN}..{CALIB_MAX}" if classes else \
        "no class axis in the output: default"
    return [Action("calibrate", f"Calibrate activation ranges with {n} stratified images",
                   "activation ranges come from the calibration set; every class should be represented",
                   f"{n} images ({per}), stratified by label, preprocessed by the model's input contract",
                   {"images": n, "classes": classes}, automatic=True, evidence="analysis")]


def prescribe(diag: Diagnosis, target: "str | Target | None" = None) -> tuple[Action, ...]:
    """The actions for ``diag``; ``target`` is the target it was diagnosed on (a name, a TOML path or a
    ``Target``; default: the bundled target named in the diagnosis)."""
    target = load_target(target if target is not None else diag.target)
    actions = _fix_dynamic(diag)
    moved = _move_out(diag, target)
    moved_nodes = {n for a in moved for n in a.nodes}
    actions += moved
    swaps = _swap(diag, target, moved_nodes)
    actions += swaps
    norms = _norms(diag, target)
    actions += norms
    handled = moved_nodes | {n for a in swaps + norms for n in a.nodes}
    actions += _other_errors(diag, handled)
    actions += _splitters(diag, target, handled | {f.node for f in diag.lint.errors})
    actions += _prune(diag, target)
    actions += _per_channel(diag)
    actions += _calibrate(diag)
    return tuple(actions)
