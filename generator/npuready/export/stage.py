"""Quantise, lower, check and compile: the steps of `npuready export`, each recorded in the manifest.

1. the float model is loaded with the shape pins, the calibration folder read as ``deploy`` reads it
   (same layouts, same stratified seeded split: calibration sample / held-out check inputs);
2. INT8 post-training quantisation to QDQ (LayerNormalization decomposed first, as ``quantize`` does
   by default, so LiteRT can run it);
3. the integer graph is built from the QDQ model (an op without an integer kernel refuses the export);
4. the QDQ model is lowered to INT8 TFLite with its own scales (``npuready.tflite``);
5. the .tflite is run on LiteRT's reference kernels (BUILTIN_REF) beside the integer engine on the
   check inputs: every int8 tensor must be identical, or the export is refused naming the first one
   that differs — so the file written is the one whose numerics were checked;
6. on an Ethos-U mirror target, Vela compiles the .tflite (the file the Ethos-U runtime loads) and its
   per-layer estimate is lined up with npuready's simulated cost;
7. with ``--qnn``, the QDQ model runs on Qualcomm's HTP backend. A model with LayerNormalization gets a
   second QDQ model for HTP with the norm kept whole (``model_qdq_htp.onnx``): HTP has a LayerNorm op, and
   the decomposed int8 sequence LiteRT needs loses agreement with float on HTP (``vendor-export`` measures
   both forms).
A refusal (exit 1) writes nothing; bad input (exit 2) is refused before any work.
"""
from __future__ import annotations

import importlib.metadata
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

from npuready.errors import InputError
from npuready.export.artifact import file_entry, write_manifest
from npuready.export.folder import KIND, Staged, check_out
from npuready.graph.pins import ShapePins

EXIT_EXPORTED, EXIT_REFUSED = 0, 1
TOOLS = ("onnx", "onnxruntime", "ai-edge-litert", "ethos-u-vela")


@dataclass(frozen=True)
class Settings:
    target: str
    calib_dir: str
    out: str
    calib_images: int = 100
    check_images: int = 20
    preprocess: str | None = None
    method: str = "minmax"
    per_channel: bool = True
    seed: int = 0
    compile: bool = True       # run Vela on an Ethos-U mirror target
    layernorm: str = "decompose"
    qnn: bool = False          # also run the QDQ model on Qualcomm's HTP backend (make qnn-env)
    rknn: str | None = None    # also compile with RKNN-Toolkit2 for this Rockchip platform (make rknn-env)
    pins: ShapePins = ShapePins()


@dataclass(frozen=True)
class ExportResult:
    model: str
    target: str
    out: str
    exported: bool
    refused_at: str | None     # the step that refused ("engine", "tflite", "litert", "vela")
    reason: str
    manifest: Mapping[str, Any] = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        return EXIT_EXPORTED if self.exported else EXIT_REFUSED

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model, "target": self.target, "out": self.out, "exported": self.exported,
                "refused_at": self.refused_at, "reason": self.reason, "manifest": dict(self.manifest),
                "exit_code": self.exit_code}


def tool_versions() -> dict[str, str]:
    out = {}
    for dist in TOOLS:
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = "not installed"
    return out


def _input_shape(graph) -> tuple[int, ...]:
    if len(graph.inputs) != 1:
        raise InputError(f"{graph.path or graph.name}: export supports one graph input, found {len(graph.inputs)}")
    info = graph.inputs[0]
    if not (info.dtype or "").startswith("float"):
        raise InputError(f"input {info.name}: dtype {info.dtype}; export quantises float-input models")
    return tuple(d if isinstance(d, int) else 1 for d in (info.shape or ()))


def _quantize(model, calibration: list[np.ndarray], settings: Settings):
    from npuready.quant.decompose_layernorm import decompose_layernorm
    from npuready.quant.ptq import quantize_model

    decomposed = 0
    if settings.layernorm == "decompose":
        model, decomposed = decompose_layernorm(model)
    return quantize_model(model, calibration, settings.method, per_channel=settings.per_channel), decomposed


def export_model(model_path: "str | Path", settings: Settings, command: str,
                 log: Callable[[str], None] = lambda s: None) -> ExportResult:
    """Run the export; return what was written (or why nothing was). Raises InputError on bad input."""
    from npuready.cost import estimate
    from npuready.deploy.calibration import read_folder, split
    from npuready.data.sha import sha256_file
    from npuready.graph import load
    from npuready.preprocess.resolve import resolve_spec
    from npuready.targets import load_target

    path, out = Path(model_path), Path(settings.out)
    check_out(out)
    if settings.qnn:
        from npuready.vendor import qnn_htp

        if not qnn_htp.available():
            raise InputError(f"--qnn: Qualcomm's HTP backend is not installed ({qnn_htp.venv()} missing): "
                             "run `make qnn-env`")
    if settings.rknn:
        from npuready.vendor import rknn_toolkit

        if settings.rknn not in rknn_toolkit.PLATFORMS:
            raise InputError(f"--rknn {settings.rknn!r}: not an RKNN-Toolkit2 platform; choose from "
                             f"{', '.join(rknn_toolkit.PLATFORMS)}")
        if not rknn_toolkit.available():
            raise InputError(f"--rknn: RKNN-Toolkit2 is not installed ({rknn_toolkit.venv()} missing): "
                             "run `make rknn-env`")
    graph = load(path, pins=settings.pins)
    target = load_target(settings.target)
    if any(n.op_type in ("QuantizeLinear", "DequantizeLinear") for n in graph.nodes):
        raise InputError(f"{path}: already quantised (QuantizeLinear/DequantizeLinear); export the float model")
    spec = resolve_spec(settings.preprocess) if settings.preprocess else None
    data = read_folder(settings.calib_dir, _input_shape(graph), spec, graph.model)
    sp = split(data, settings.calib_images, settings.check_images, settings.seed)

    def refused(step: str, reason: str) -> ExportResult:
        return ExportResult(str(path), target.name, str(out), False, step, reason)

    log("INT8 post-training quantisation")
    calibration = [data.x[int(i)] for i in sp.calibration]  # one batch-1 array per calibration input
    qdq, decomposed = _quantize(graph.model, calibration, settings)

    log("integer graph")
    from npuready.engine.export import export_integer_graph

    try:
        intgraph = export_integer_graph(qdq)
    except InputError as exc:
        return refused("engine", f"integer engine: {exc}")

    log("INT8 TFLite")
    from npuready.tflite.export import export_int8_from_qdq

    try:
        tflite = export_int8_from_qdq(qdq)
    except InputError as exc:
        return refused("tflite", f"TFLite lowering: {exc}")

    log(f"check against LiteRT's reference kernels ({len(sp.parity)} inputs)")
    from npuready.verify.litert_oracle import compare_with_litert

    images = data.x[sp.parity].reshape(len(sp.parity), *data.x.shape[2:])
    oracle = compare_with_litert(qdq, images, intgraph, optimized=False, model_name=path.stem)
    first = oracle.first_mismatch()
    check = {"evidence": "measured", "reference": "LiteRT BUILTIN_REF (reference kernels)",
             "inputs": int(len(images)), "inputs_overlap_calibration": bool(sp.overlap),
             "tensors_compared": oracle.tensors_compared, "tensors_mismatched": oracle.tensors_mismatched,
             "first_mismatch": first}
    if first is not None:
        return refused("litert", f"the .tflite differs from the integer engine at tensor {first['tensor']} "
                                 f"({first['kind']}, {first['images']} of {len(images)} inputs, up to "
                                 f"{first['max_abs_code_diff']} int8 codes): not written")

    log("simulated cost")
    total = estimate(graph, target).total()
    cost = {"evidence": "simulated", "target": target.name,
            **{k: total[k] for k in ("cycles", "npu_cycles", "latency_s", "macs", "energy_uj")}}
    vin = intgraph.tensors[intgraph.ops[0].outputs[0]]  # the Quantize of the graph input
    manifest: dict[str, Any] = {
        "kind": KIND, "version": 1, "command": command,
        "model": {"file": path.name, "sha256": sha256_file(path)},
        "target": target.name, "tools": tool_versions(),
        "preprocessing": None if spec is None else spec.to_dict(),
        "input": {"name": vin.float_name, "shape": list(intgraph.input_shape), "dtype": "int8",
                  "scale": float(vin.scale), "zero_point": int(vin.zero_point)},
        "outputs": [{"name": intgraph.tensors[o].float_name, "dtype": "int8",
                     "scale": float(intgraph.tensors[o].scale), "zero_point": int(intgraph.tensors[o].zero_point)}
                    for o in intgraph.outputs],
        "quantization": {"method": settings.method, "weights": "per-channel" if settings.per_channel else "per-tensor",
                         "activations": "int8 asymmetric per-tensor", "layernorm_decomposed": decomposed,
                         "calibration_inputs": int(len(sp.calibration)), "calibration_set_sha256": data.sha256,
                         "seed": settings.seed},
        "check": check, "cost": cost, "vela": None, "qnn_htp": None, "rknn": None,
        "files": {}}

    with Staged(out) as st:
        (st.path / "model_qdq.onnx").write_bytes(qdq.SerializeToString())
        (st.path / "model_int8.tflite").write_bytes(tflite)
        if settings.qnn:
            log(f"Qualcomm HTP backend ({len(images)} inputs)")
            htp_file = "model_qdq.onnx"
            if decomposed:  # HTP has a LayerNorm op; the decomposed int8 sequence is what LiteRT needs, not HTP
                from npuready.quant.ptq import quantize_model

                htp_file = "model_qdq_htp.onnx"
                kept = quantize_model(graph.model, calibration, settings.method,
                                      per_channel=settings.per_channel)
                (st.path / htp_file).write_bytes(kept.SerializeToString())
            try:
                manifest["qnn_htp"] = {**_qnn(st.path / htp_file, images), "qdq_model": htp_file,
                                       "layernorm": "kept whole" if decomposed else "none in the model"}
            except InputError as exc:
                return refused("qnn", str(exc))
        if settings.rknn:
            log(f"RKNN-Toolkit2 for {settings.rknn} ({len(images)} inputs on its simulator)")
            try:
                manifest["rknn"] = _rknn(st.path, graph.model, np.concatenate(calibration), images, settings.rknn)
            except InputError as exc:
                return refused("rknn", str(exc))
        if settings.compile and target.reference.get("tool") == "vela":
            log("Vela compile")
            try:
                manifest["vela"] = _compile(st.path, graph, target)
            except InputError as exc:
                return refused("vela", str(exc))
        manifest["files"] = {p.name: file_entry(p) for p in sorted(st.path.iterdir())}
        write_manifest(st.path, manifest)
        st.commit()
    return ExportResult(str(path), target.name, str(out), True, None, "", manifest)


def _compile(folder: Path, graph, target) -> dict[str, Any]:
    """Vela on the written .tflite; keep its compiled model and CSVs; our cost lined up with its estimate."""
    from npuready.cost import vela
    from npuready.cost.vela_compare import compare

    with tempfile.TemporaryDirectory(prefix="npuready-vela-") as tmp:
        rows, summary = vela.compile_tflite(folder / "model_int8.tflite", target, Path(tmp))
        shutil.copyfile(Path(tmp) / "model_int8_vela.tflite", folder / "model_int8_vela.tflite")
        shutil.copyfile(Path(tmp) / "model_int8_per-layer.csv", folder / "vela_per-layer.csv")
        shutil.copyfile(next(Path(tmp).glob("model_int8_summary_*.csv")), folder / "vela_summary.csv")
    side = compare(graph, target, rows, summary)
    return {"evidence": "Vela's performance estimate (a model, like ours: not measured on silicon)",
            "vela_version": vela.version(), "accelerator": target.reference["accelerator"],
            "system_config": target.reference["system_config"], "memory_mode": target.reference["memory_mode"],
            "reference_cycles": side["reference_cycles"], "ours_cycles": side["ours_cycles"], "ratio": side["ratio"],
            "ours_unmatched_cycles": side["ours_unmatched_cycles"],
            "per_category": side["per_category"],
            "layers": [{k: x[k] for k in ("tensor", "category", "vela_operator", "ours_cycles", "reference_cycles",
                                          "ratio")} for x in side["layers"]],
            "vela_summary": side["vela_summary"]}


def _qnn(qdq: Path, images: np.ndarray) -> dict[str, Any]:
    """The QDQ model on Qualcomm's HTP backend beside onnxruntime's CPU provider (same file, same inputs)."""
    from npuready.vendor import qnn_htp

    r = qnn_htp.run(qdq, images)
    return {"evidence": "measured (Qualcomm's HTP simulator for x86, onnxruntime-qnn; not a Snapdragon)",
            "versions": r.versions, **r.placement.to_dict(), **r.agreement()}


def _top1(outputs: np.ndarray) -> np.ndarray:
    return outputs.reshape(len(outputs), -1).argmax(1)


def _rknn(folder: Path, float_model, calibration: np.ndarray, images: np.ndarray, platform: str) -> dict[str, Any]:
    """RKNN-Toolkit2 quantises and compiles the float model itself (its own calibration on the same sample);
    its simulator's first output beside onnxruntime's float output on the check inputs."""
    from npuready.vendor import rknn_toolkit
    from npuready.verify.runners import run_float

    onnx_path = folder / ".float_for_rknn.onnx"
    onnx_path.write_bytes(float_model.SerializeToString())
    try:
        r = rknn_toolkit.run(onnx_path, calibration, images, platform)
    finally:
        onnx_path.unlink()
    (folder / f"model_{platform}.rknn").write_bytes(r.rknn_bytes)
    ref = run_float(float_model, images)
    got = r.outputs[0].reshape(ref.shape)
    return {"evidence": "Rockchip's layer placement and cycle estimate (a model, no device here); simulator "
                        "outputs measured on this CPU",
            **r.summary(), "inputs": int(len(images)),
            "top1_agreement_with_float": round(float(np.mean(_top1(got) == _top1(ref))), 6),
            "max_abs_diff_vs_float": float(np.max(np.abs(got - ref), initial=0.0)),
            "layer_table": [x.to_dict() for x in r.layers]}
