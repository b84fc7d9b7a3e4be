"""Apply a prescription to a zoo classifier (torch extra) and measure before/after.

Before: the committed zoo ONNX, quantised naively (per-tensor weights, the first ``NAIVE_IMAGES``
training images as calibration). After: the prescribed automatic actions — activation swap with the
lead's ``surgery.swap.swap_activations`` and a short recovery fine-tune (``surgery.recover``),
per-channel weights, a stratified calibration set of the prescribed size. Accuracies are measured
here on the committed Fashion-MNIST subset test split (onnxruntime float, onnxruntime fake-quant on
the QDQ model, the C++ integer engine, NumPy when it cannot be built); cycles are simulated; lint counts are structural.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import onnx

from npuready.errors import InputError
from npuready.intake.prescribe import Action
from npuready.targets import Target, load_target

NAIVE_IMAGES = 16
RECOVERY_STEPS = 200


@dataclass(frozen=True)
class Stage:
    name: str                 # before | after-swap | after-recovery | after
    settings: Mapping[str, Any]
    lint_errors: int | None = None
    cycles: int | None = None             # simulated
    float_accuracy: float | None = None   # measured
    fake_quant_accuracy: float | None = None
    integer_accuracy: float | None = None
    integer_note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "settings": dict(self.settings), "lint_errors": self.lint_errors,
                "cycles": self.cycles, "float_accuracy": self.float_accuracy,
                "fake_quant_accuracy": self.fake_quant_accuracy, "integer_accuracy": self.integer_accuracy,
                "integer_note": self.integer_note}


@dataclass(frozen=True)
class Outcome:
    model: str
    target: str
    applied: tuple[str, ...]          # action ids performed
    swaps: tuple[dict, ...]
    stages: tuple[Stage, ...]
    eval_images: int
    eval_set: str
    recovery: Mapping[str, Any] = field(default_factory=dict)

    def stage(self, name: str) -> Stage:
        return next(s for s in self.stages if s.name == name)

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model, "target": self.target, "applied": list(self.applied), "swaps": list(self.swaps),
                "stages": [s.to_dict() for s in self.stages], "eval_images": self.eval_images,
                "eval_set": self.eval_set, "recovery": dict(self.recovery),
                "evidence": {"accuracy": "measured", "cycles": "simulated", "lint_errors": "ONNX structure"}}


def onnx_accuracy(model: onnx.ModelProto, x: np.ndarray, y: np.ndarray) -> float:
    """Top-1 of the first output, run as the parity ladder runs it (``verify.runners.run_float``)."""
    from npuready.verify.runners import run_float

    pred = run_float(model, x).reshape(len(x), -1).argmax(1)
    return float((pred == y).mean())


def integer_accuracy(qdq: onnx.ModelProto, x: np.ndarray, y: np.ndarray) -> tuple[float | None, str]:
    """Top-1 of the integer graph: the C++ engine (bit-identical twin of the NumPy engine, faster), or the
    NumPy engine when the C++ library cannot be built here."""
    from npuready.engine import cpp_engine, numpy_engine
    from npuready.engine.export import export_integer_graph

    try:
        graph = export_integer_graph(qdq)
    except InputError as exc:
        return None, f"integer engine cannot run this model: {exc}"
    try:
        codes, engine = cpp_engine.run(graph, x, keep=False)[graph.outputs[0]], "C++"
    except (InputError, OSError):
        codes, engine = numpy_engine.run(graph, x, keep=False)[graph.outputs[0]], "NumPy"
    pred = graph.dequantize(graph.outputs[0], codes).reshape(len(x), -1).argmax(1)
    return float((pred == y).mean()), f"{engine} integer engine, rounding {graph.rounding}"


def measure(name: str, model: onnx.ModelProto, target: Target, x: np.ndarray, y: np.ndarray,
            calib: Sequence[np.ndarray] | None, per_channel: bool, settings: Mapping[str, Any],
            same_float: Stage | None = None) -> Stage:
    """``same_float``: a stage already measured on this float model; its lint count, cycles and float
    accuracy are taken over instead of measured again."""
    from npuready.cost import estimate
    from npuready.graph import load
    from npuready.lint import lint
    from npuready.quant.ptq import quantize_model

    graph = load(model)
    if same_float is None:
        errors = len(lint(graph, target=target).errors)
        cycles = int(estimate(graph, target).cycles)
        float_acc = onnx_accuracy(graph.model, x, y)
    else:
        errors, cycles, float_acc = same_float.lint_errors, same_float.cycles, same_float.float_accuracy
    if calib is None:
        return Stage(name, settings, errors, cycles, float_acc)
    qdq = quantize_model(graph.model, calib, "minmax", per_channel=per_channel)
    fq = onnx_accuracy(qdq, x, y)
    ia, note = integer_accuracy(qdq, x, y)
    return Stage(name, settings, errors, cycles, float_acc, fq, ia, note)


def _recovery_data(mean: float, std: float):
    """Full Fashion-MNIST train split when the Debian package is installed, else the committed subset."""
    from npuready.models.train_classifier import normalise

    try:
        from npuready.data import fashion_mnist

        images, labels = fashion_mnist("train")
        source = "Fashion-MNIST train (full, Debian package)"
    except InputError:
        from npuready.data import fashion_mnist_subset

        images, labels = fashion_mnist_subset("train")
        source = "Fashion-MNIST committed subset, train split"
    import torch

    return normalise(images, mean, std), torch.from_numpy(labels.astype(np.int64)), source


def apply_zoo(name: str, target: "str | Target", actions: Sequence[Action], recovery_steps: int = RECOVERY_STEPS,
              eval_images: int | None = None, seed: int = 0, zoo_folder=None,
              log: Callable[[str], None] = lambda s: None, show_progress: bool = False) -> Outcome:
    """Perform the automatic actions on zoo model ``name`` and measure each stage."""
    from npuready.data import fashion_mnist_subset
    from npuready.graph import load
    from npuready.models import load as load_zoo
    from npuready.models.onnx_eval import classifier_input
    from npuready.models.onnx_export import onnx_bytes
    from npuready.models.zoo import spec as zoo_spec
    from npuready.paths import zoo_dir
    from npuready.preprocess.calibration import stratified_indices

    spec = zoo_spec(name)
    if spec.kind != "classifier":
        raise InputError(f"zoo model {name!r}: --apply measures classification accuracy; it supports the "
                         f"Fashion-MNIST classifiers, not the {spec.kind}")
    tgt = load_target(target)
    ids = {a.id: a for a in actions}
    xt_img, yt = fashion_mnist_subset("test")
    if eval_images:
        keep = stratified_indices(yt, min(eval_images, len(yt)), seed)
        xt_img, yt = xt_img[keep], yt[keep]
    x = classifier_input(xt_img, spec.mean[0], spec.std[0])
    tr_img, tr_y = fashion_mnist_subset("train")
    xtr = classifier_input(tr_img, spec.mean[0], spec.std[0])
    naive = [xtr[i:i + 1] for i in range(NAIVE_IMAGES)]
    n_calib = int(ids["calibrate"].effect["images"]) if "calibrate" in ids else NAIVE_IMAGES
    strat = stratified_indices(tr_y, min(n_calib, len(tr_y)), seed)
    calib = [xtr[i:i + 1] for i in strat] if "calibrate" in ids else naive
    per_channel = "per-channel-weights" in ids

    folder = zoo_folder or zoo_dir()
    base = load(f"{folder}/{name}.onnx").model
    log("measuring the zoo model as it is")
    stages = [measure("before", base, tgt, x, yt, naive, False,
                      {"weights": "per-tensor", "calibration": f"first {NAIVE_IMAGES} training images"})]
    applied, swaps, recovery = [], [], {}
    model_after = base
    if "swap-activation" in ids:
        from npuready.surgery.recover import recover
        from npuready.surgery.swap import swap_activations

        torch_model = load_zoo(name, folder)
        swapped, made = swap_activations(torch_model, tgt)
        swaps = [{"where": s.where, "old": s.old, "new": s.new} for s in made]
        if made:
            applied.append("swap-activation")
            exported = onnx.load_from_string(onnx_bytes(swapped, spec))
            stages.append(measure("after-swap", exported, tgt, x, yt, None, False, {"recovery_steps": 0}))
            xr, yr, source = _recovery_data(spec.mean[0], spec.std[0])
            log(f"recovery fine-tune: {recovery_steps} steps on {source}")
            recovered = recover(swapped, xr, yr, recovery_steps, seed=seed, show_progress=show_progress)
            recovery = {"steps": recovery_steps, "batch": 128, "optimizer": "AdamW, cosine", "data": source,
                        "seed": seed}
            model_after = onnx.load_from_string(onnx_bytes(recovered, spec))
            stages.append(measure("after-recovery", model_after, tgt, x, yt, None, False,
                                  {"recovery_steps": recovery_steps}))
    if per_channel:
        applied.append("per-channel-weights")
    if "calibrate" in ids:
        applied.append("calibrate")
    log("measuring the prescribed model")
    stages.append(measure("after", model_after, tgt, x, yt, calib, per_channel,
                          {"weights": "per-channel" if per_channel else "per-tensor",
                           "calibration": f"{len(calib)} stratified training images" if "calibrate" in ids
                           else f"first {NAIVE_IMAGES} training images"},
                          same_float=stages[-1]))  # the last stage measured model_after (before, or after-recovery)
    return Outcome(name, tgt.name, tuple(applied), tuple(swaps), tuple(stages), int(len(x)),
                   "Fashion-MNIST committed subset, test split", recovery)
