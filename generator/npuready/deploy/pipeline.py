"""The deploy pipeline, one model from ONNX to a registered INT8 build: lint → partition → calibrate → INT8 PTQ →
integer engine → parity gate → register.

Each stage returns evidence; a stage that blocks stops the pipeline and the refusal goes to the
registry's ``rejections`` with its reason. Lint blocks on any ERROR; the integer export blocks when
the engine has no kernel for an op or refuses a stored scale; the parity gate blocks when the fake-quant rung
(the QDQ file as stored) or the integer rung falls below its top-1 agreement with float or accuracy-drop
limit (another task, ``verify.tasks``: below its task metric's limit). Lint/partition rest on ONNX structure (not
NPU silicon), cost is simulated, parity numbers are measured here on CPU.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from npuready.deploy.faults import checkpoint
from npuready.deploy.names import check_name
from npuready.deploy.registry import Registry
from npuready.errors import InputError
from npuready.graph.pins import ShapePins

EXIT_REGISTERED, EXIT_BLOCKED = 0, 1


@dataclass(frozen=True)
class Settings:
    target: str
    calib_dir: str
    registry: str
    name: str | None = None
    calib_images: int = 100
    parity_images: int = 200
    per_channel: bool = True
    method: str = "minmax"
    min_agreement: float = 0.99
    max_drop: float = 0.01
    preprocess: str | None = None
    seed: int = 0
    engine: str = "numpy"      # integer engine of the parity ladder: numpy | cpp (bit-identical twins)
    pins: ShapePins = ShapePins()  # --input-shape / --batch, applied before any stage
    task: str | None = None    # the gate's task metric (verify.tasks); None: inferred from the output shapes
    task_limit: float | None = None  # its limit for tasks other than classification (None: the metric's own)


@dataclass(frozen=True)
class StageResult:
    stage: str
    status: str                # passed | blocked | recorded
    summary: str
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"stage": self.stage, "status": self.status, "summary": self.summary, "evidence": dict(self.evidence)}


@dataclass(frozen=True)
class DeployResult:
    name: str
    model: str
    target: str
    model_sha256: str
    stages: tuple[StageResult, ...]
    registered: bool
    reason: str                 # why blocked ("" when registered)
    entry: Mapping[str, Any]    # the registry entry (accepted model or rejection)
    registry: str
    command: str

    @property
    def exit_code(self) -> int:
        return EXIT_REGISTERED if self.registered else EXIT_BLOCKED

    @property
    def blocked_stage(self) -> str | None:
        return next((s.stage for s in self.stages if s.status == "blocked"), None)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "model": self.model, "target": self.target, "model_sha256": self.model_sha256,
                "registered": self.registered, "blocked_stage": self.blocked_stage, "reason": self.reason,
                "stages": [s.to_dict() for s in self.stages], "registry": self.registry, "entry": dict(self.entry),
                "command": self.command, "exit_code": self.exit_code}


def _input_shape(graph) -> tuple[int, ...]:
    if len(graph.inputs) != 1:
        raise InputError(f"{graph.path or graph.name}: deploy supports one graph input, found {len(graph.inputs)}")
    info = graph.inputs[0]
    if not (info.dtype or "").startswith("float"):
        raise InputError(f"input {info.name}: dtype {info.dtype}; deploy quantises float-input models (move uint8 "
                         "pre-processing out of the graph or fuse it: `npuready preprocess fuse`)")
    return tuple(d if isinstance(d, int) else 1 for d in (info.shape or ()))


def _lint(rep) -> StageResult:
    d = rep.to_dict()
    ev = {"evidence": "ONNX structure", "summary": d["summary"], "basis": d["basis"],
          "findings": [{k: f[k] for k in ("rule", "severity", "node", "op_type", "message")} for f in d["findings"]]}
    if rep.blocked:
        what = "; ".join(f"{f.rule} {f.node} ({f.op_type}): {f.message}" for f in rep.errors[:5])
        more = f" (+{len(rep.errors) - 5} more)" if len(rep.errors) > 5 else ""
        return StageResult("lint", "blocked", f"{len(rep.errors)} lint ERROR(s): {what}{more}", ev)
    return StageResult("lint", "passed", f"0 ERROR, {len(rep.warnings)} WARN", ev)


def _partition(plan) -> StageResult:
    d = plan.to_dict()
    ev = {"evidence": "ONNX structure", "verdict": d["verdict"], "verdict_text": d["verdict_text"],
          "npu_segments": d["npu_segments"], "segments": [{"name": s["name"], "device": s["device"],
                                                            "nodes": len(s["nodes"]), "macs": s["macs"]}
                                                           for s in d["segments"]],
          "transfer_bytes": d["transfer_bytes_per_inference"], "missing_cpu_code": d["missing_cpu_code"],
          "basis": d["basis"]}
    return StageResult("partition", "recorded", plan.verdict_text(), ev)


def _cost(rep) -> StageResult:
    t = rep.total()
    ev = {"evidence": "simulated", **{k: t[k] for k in ("cycles", "npu_cycles", "latency_s", "macs",
                                                        "npu_utilisation", "energy_uj")}}
    return StageResult("cost", "recorded", f"{t['cycles']} simulated cycles, {t['macs']} MACs", ev)


def deploy(model_path: "str | Path", settings: Settings, command: str,
           log: Callable[[str], None] = lambda s: None) -> DeployResult:
    """Run the pipeline on a float ONNX model and register it or record the refusal. Raises InputError."""
    from npuready.data.sha import sha256_file
    from npuready.graph import load
    from npuready.targets import load_target

    path = Path(model_path)
    graph = load(path, pins=settings.pins)
    target = load_target(settings.target)
    shape = _input_shape(graph)
    if any(n.op_type in ("QuantizeLinear", "DequantizeLinear") for n in graph.nodes):
        raise InputError(f"{path}: already quantised (QuantizeLinear/DequantizeLinear); deploy the float model")
    name = check_name(settings.name) if settings.name else check_name(path.stem, origin=f" (from the model file "
                                                                                        f"name {path.name})")
    sha = sha256_file(path)
    registry = Registry(Path(settings.registry))
    registry.check_new_name(name, target.name)  # refuse a broken index or a case-only clash before the work
    from npuready.deploy.calibration import read_folder, split

    data = read_folder(settings.calib_dir, shape, _spec(settings), graph.model)  # unusable folder: exit 2 first
    stages: list[StageResult] = []

    def blocked(stage: StageResult) -> DeployResult:
        stages.append(stage)
        evidence = {s.stage: s.to_dict() for s in stages}
        entry = registry.reject(name, target.name, stage.stage, stage.summary, sha, command, evidence)
        return DeployResult(name, str(path), target.name, sha, tuple(stages), False, stage.summary, entry,
                            str(registry.root), command)

    log("lint")
    checkpoint("lint")
    from npuready.analysis import AnalysisOptions, analyse

    # one pass; partition and cost only if lint passes
    found = analyse(graph, target, AnalysisOptions(stop_on_block=True))
    lint_stage = _lint(found.lint)
    if lint_stage.status == "blocked":
        return blocked(lint_stage)
    stages.append(lint_stage)
    log("partition and cost")
    stages += [_partition(found.plan), _cost(found.cost)]

    log("calibration set")
    sp = split(data, settings.calib_images, settings.parity_images, settings.seed)
    _check_data(data, sp, graph.model)
    stages.append(StageResult("calibrate", "passed",
                              f"{len(sp.calibration)} of {len(data.files)} inputs"
                              + (" (stratified by label)" if data.labels is not None
                                 else " (no labels: seeded sample)"),
                              {"evidence": "measured", "folder": str(data.folder), "kind": data.kind,
                               "files": len(data.files), "label_source": data.label_source,
                               "calibration_set_sha256": data.sha256, "seed": settings.seed, **sp.to_dict(data)}))

    log("INT8 post-training quantisation")
    checkpoint("quantize")
    from npuready.quant.ptq import quantize_model

    qdq = quantize_model(graph.model, [data.x[int(i)] for i in sp.calibration], settings.method,
                         per_channel=settings.per_channel)
    stages.append(StageResult("quantize", "passed", f"QDQ int8 ({settings.method}, "
                              f"{'per-channel' if settings.per_channel else 'per-tensor'} weights)",
                              {"method": settings.method,
                               "weights": "per-channel" if settings.per_channel else "per-tensor",
                               "activations": "int8 asymmetric per-tensor", "tool": "onnxruntime.quantization (QDQ)"}))

    log("integer engine export")
    from npuready.engine.export import export_integer_graph

    try:
        intgraph = export_integer_graph(qdq)
    except InputError as exc:
        return blocked(StageResult("engine", "blocked", f"integer engine: {exc}", {"error": str(exc)}))
    kinds = sorted({op.kind for op in intgraph.ops})
    stages.append(StageResult("engine", "passed", f"{len(intgraph.ops)} integer ops ({', '.join(kinds)}), "
                              f"rounding {intgraph.rounding}",
                              {"ops": len(intgraph.ops), "kinds": kinds, "rounding": intgraph.rounding,
                               "engine": settings.engine}))

    log("parity ladder and gate")
    checkpoint("parity")
    parity = _parity(graph.model, qdq, data, sp, settings)
    if parity.status == "blocked":
        return blocked(parity)
    stages.append(parity)

    log("device artifact (INT8 TFLite checked against LiteRT)")
    from npuready.deploy.artifact import check_tflite

    tflite, ev, summary = check_tflite(qdq, intgraph, data.x[sp.parity].reshape(len(sp.parity), *data.x.shape[2:]),
                                       name)
    stages.append(StageResult("artifact", "passed" if tflite is not None else "recorded", summary, ev))

    log("register")
    return _register(registry, name, target.name, path, sha, qdq, intgraph, stages, command, tflite)


def _check_data(data, sp, float_model) -> None:
    """Data sanity (exit 2): finite inputs, labels inside the model's class range, a non-constant calibration."""
    from npuready.verify.data_check import check_calibration, check_evaluation, check_finite, output_classes

    check_finite(data.x, str(data.folder), data.files)
    labels = data.class_labels
    check_evaluation(data.x, labels, output_classes(float_model), str(data.folder), data.files)
    check_calibration(data.x[sp.calibration], f"{data.folder} (calibration sample)")


def _spec(settings: Settings):
    from npuready.preprocess.resolve import resolve_spec

    if settings.preprocess:
        return resolve_spec(settings.preprocess)
    return None


def _parity(float_model, qdq, data, sp, settings: Settings) -> StageResult:
    from npuready.verify.gate import GateLimits, gate
    from npuready.verify.ladder import run_ladder

    labels = data.class_labels
    x = data.x[sp.parity].reshape(len(sp.parity), *data.x.shape[2:])
    y = labels[sp.parity] if labels is not None else None
    result = run_ladder(float_model, qdq, x, y, engine=settings.engine, model_name="deploy", task=settings.task)
    limits = GateLimits(settings.min_agreement, settings.max_drop, settings.task_limit)
    verdict = gate(result, limits)
    worst = max(result.tensors, key=lambda t: t.mismatch_propagated, default=None)
    ev = {"evidence": "measured", "images": result.images, "overlaps_calibration": sp.overlap,
          "accuracy": result.accuracy, "agreement": result.agreement,
          "limits": {"min_agreement": limits.min_agreement, "max_accuracy_drop": limits.max_accuracy_drop},
          "first_divergence": result.first_divergence, "rounding": result.rounding_profile, "engine": result.engine,
          "worst_tensor": None if worst is None else {"tensor": worst.tensor, "op": worst.op,
                                                      "mismatch": round(worst.mismatch_propagated, 6),
                                                      "max_abs_code_diff": worst.max_abs_propagated},
          "explanation": list(result.explanation), "gate_reasons": list(verdict.reasons),
          "task": result.task.to_dict(), "task_scores": {k: v.to_dict() for k, v in result.task_scores.items()},
          "gate_cause": verdict.cause}
    if not verdict.passed:
        return StageResult("parity", "blocked", "parity gate failed: " + "; ".join(verdict.reasons), ev)
    if result.task_name != "classification":
        shown = ", ".join(f"{k.replace('_vs_float', '').replace('_', '-')} {v.shown()}"
                          for k, v in result.task_scores.items() if k.endswith("_vs_float"))
        metric = next(iter(result.task_scores.values())).metric
        return StageResult("parity", "passed", f"{result.task.line()}; {metric} with float: {shown} on "
                                               f"{result.images} inputs", ev)
    agree = result.agreement
    acc = (f", accuracy float {result.accuracy['float']:.4f} → fake-quant {result.accuracy['fake_quant']:.4f}, "
           f"integer {result.accuracy['integer']:.4f}" if result.accuracy else " (no class labels: agreement only)")
    return StageResult("parity", "passed",
                       f"top-1 agreement with float: fake-quant {agree['fake_quant_vs_float']:.4f}, "
                       f"integer {agree['integer_vs_float']:.4f} on {result.images} inputs{acc}", ev)


def _register(registry: Registry, name, target, path: Path, sha, qdq, intgraph, stages, command,
              tflite: bytes | None = None) -> DeployResult:
    """Write the artefacts into a staging folder inside the registry, then commit them (see ``Registry``)."""
    from npuready.atomic import write_bytes
    from npuready.engine.intgraph import save

    evidence = {s.stage: s.to_dict() for s in stages}
    with registry.stage() as st:
        st.put("float", path)
        checkpoint("staging")
        st.write("qdq", ".onnx", lambda p: write_bytes(p, qdq.SerializeToString()))
        st.write("integer", ".npz", lambda p: save(intgraph, p))
        if tflite is not None:
            st.write("int8", ".tflite", lambda p: write_bytes(p, tflite))
        entry = registry.commit(st, name, target, evidence, command, model_sha256=sha)
    stages = [*stages, StageResult("register", "passed", f"{name} on {target} → {registry.index_path}",
                                   {"files": entry["files"], "version": entry["version"]})]
    return DeployResult(name, str(path), target, sha, tuple(stages), True, "", entry, str(registry.root), command)
