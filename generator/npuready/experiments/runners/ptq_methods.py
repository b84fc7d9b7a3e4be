"""Experiment `ptq-methods`: INT8 top-1 of every quantisation recipe side by side, per zoo model.

Per model: float accuracy (onnxruntime) and, for each recipe in ``quant.recipes`` plus QAT, the
fake-quant accuracy of its QDQ model (onnxruntime, graph optimisations off so QuantizeLinear /
DequantizeLinear run literally), the drop in percentage points and top-1 agreement with float. The
calibration set comes from the preprocessing contract's builder (stratified, seeded, ``offload`` mode:
model-input tensors) over the committed Fashion-MNIST training subset; the test set is the committed
1,000-image test subset. QAT fine-tunes the zoo checkpoint on the same 2,000-image training subset.

Unit of work: one model x one recipe (each task rebuilds the model's seeded calibration set and float
reference); the merge keeps model order, then recipe order.
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from npuready.experiments.context import RunContext
from npuready.experiments.task import Task


def _predict(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    """Argmax of the first output for every image (100 per onnxruntime call when the graph allows)."""
    from npuready.quant.qdq_layers import run_batched

    out = model.graph.output[0].name
    return np.concatenate([v[0].argmax(1) for v in run_batched(model, [out], [x[i:i + 1] for i in range(len(x))],
                                                                  chunk=100)])


def _images(spec, images: np.ndarray) -> np.ndarray:
    from npuready.preprocess.pipeline import apply

    return np.concatenate([apply(spec, img) for img in images]).astype(np.float32)


def _calibration(onnx_file: Path, spec, n: int, seed: int) -> tuple[list[np.ndarray], dict[str, Any]]:
    from npuready.data.subset import fashion_mnist_subset
    from npuready.preprocess.calibration import build_calibration_set
    from npuready.quant.inputs import load_inputs

    images, labels = fashion_mnist_subset("train")
    with tempfile.TemporaryDirectory() as tmp:
        cal = build_calibration_set(images, labels, spec, tmp, n=n, seed=seed, mode="offload", model=onnx_file,
                                    source="data/fashion_mnist_subset.npz (train)")
        x = load_inputs(tmp, None, tuple(cal.shape)).x
    info = {"builder": "npuready.preprocess.calibration.build_calibration_set", "mode": "offload",
            "source": "committed Fashion-MNIST subset, train split", "count": len(x), "seed": seed,
            "per_class": cal.manifest["per_class"]}
    return [x[i:i + 1] for i in range(len(x))], info


def _row(model: str, method: str, weights: str, pred: np.ndarray, float_pred: np.ndarray, labels: np.ndarray,
         float_acc: float) -> dict[str, Any]:
    acc = float(np.mean(pred == labels))
    return {"model": model, "method": method, "weights": weights, "int8_accuracy": round(acc, 4),
            "float_accuracy": round(float_acc, 4), "drop_pp": round(100 * (float_acc - acc), 2),
            "top1_agreement": round(float(np.mean(pred == float_pred)), 4)}


def _qat(name: str, spec, calib, ctx: RunContext, p, x_test, test_labels) -> tuple[onnx.ModelProto, dict]:
    from npuready.data.subset import fashion_mnist_subset
    from npuready.models import load
    from npuready.quant.qat import train_qat

    images, labels = fashion_mnist_subset("train")
    x = _images(spec, images)
    res = train_qat(load(name, p["zoo"]), x, labels, calib, (1, *x.shape[1:]),
                    steps=int(p["qat_steps"]), batch=int(p["qat_batch"]), lr=float(p["qat_lr"]),
                    seed=ctx.seed(f"qat_{name}", int(p.get("seed", 0))), threads=int(p.get("threads", 2)))
    tuned = float(np.mean(_predict(res.float_model, x_test) == test_labels))
    return res.qdq_model, {"qat": {"finetuned_float_accuracy": round(tuned, 4), "steps": res.steps,
                                   "batch": res.batch, "lr": res.lr, "train_images": len(x),
                                   "train_source": "committed Fashion-MNIST subset, train",
                                   "wrapped_layers": res.wrapped_layers, "loss_per_tenth": list(res.losses),
                                   "activation_ranges": "min-max recalibration of the fine-tuned float model"}}


DEFAULTS = {"models": ["tinycnn", "resnet20", "mobilenetv2"], "methods": None, "calibration_images": 256,
            "calibration_seed": 0, "bias_images": 128, "adaround_images": 128, "adaround_iterations": 200,
            "qat_models": ["tinycnn", "resnet20"], "qat_steps": 300, "qat_batch": 64, "qat_lr": 1e-4,
            "zoo": "zoo", "seed": 0, "threads": 2}


def _params(ctx: RunContext) -> dict[str, Any]:
    p = {**DEFAULTS, **dict(ctx.params)}
    p["zoo"] = str(ctx.repo / p["zoo"]) if not Path(p["zoo"]).is_absolute() else p["zoo"]
    return p


def tasks(ctx: RunContext) -> list[Task]:
    """One task per model x recipe (QAT last, for the models in ``qat_models``)."""
    from npuready.quant.recipes import RECIPES

    p = _params(ctx)
    methods = list(p["methods"] or RECIPES)
    return [Task(f"{name}:{method}", {"model": name, "method": method})
            for name in p["models"]
            for method in methods + (["qat"] if name in p["qat_models"] else [])]


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    """Float reference, calibration set and test tensors of the model (recomputed per task: seeded, so
    identical in every task), then one recipe: its row, its details, or why it was skipped."""
    import onnxruntime

    from npuready.data.subset import SUBSET_FILE, fashion_mnist_subset, repo_data_dir
    from npuready.models import onnx_path
    from npuready.preprocess.zoo_spec import zoo_spec
    from npuready.quant.recipes import RECIPES

    p = _params(ctx)
    name, method = args["model"], args["method"]
    ctx.tool("onnx", onnx.__version__)
    ctx.tool("onnxruntime", onnxruntime.__version__)
    try:
        import torch
        ctx.tool("torch", torch.__version__)
    except ImportError:
        torch = None
    test_images, test_labels = fashion_mnist_subset("test")
    ctx.input(repo_data_dir() / SUBSET_FILE)
    onnx_file = onnx_path(name, p["zoo"])
    ctx.input(onnx_file)
    spec = zoo_spec(name, Path(p["zoo"]) / "zoo.json")
    float_model = onnx.load(onnx_file)
    calib, calib_info = _calibration(onnx_file, spec, int(p["calibration_images"]),
                                     ctx.seed("calibration", int(p["calibration_seed"])))
    x_test = _images(spec, test_images)
    float_pred = _predict(float_model, x_test)
    float_acc = float(np.mean(float_pred == test_labels))
    out: dict[str, Any] = {"model": name, "method": method, "calibration": calib_info,
                           "test_images": int(len(test_labels))}
    if method == "qat" and torch is None:
        out["skipped"] = {"model": name, "method": "qat", "error": "torch not installed (the torch extra)"}
        return out
    start = time.perf_counter()
    try:
        if method == "qat":
            q, info = _qat(name, spec, calib, ctx, p, x_test, test_labels)
        else:
            q, info = RECIPES[method].build(float_model, calib, bias_images=int(p["bias_images"]),
                                            adaround_images=int(p["adaround_images"]),
                                            adaround_iterations=int(p["adaround_iterations"]),
                                            seed=int(p["seed"]))
    except Exception as exc:  # a negative result is kept: record which method failed and why
        out["skipped"] = {"model": name, "method": method, "error": f"{type(exc).__name__}: {exc}"[:300]}
        return out
    ctx.timing(f"{name}:{method}:quantize_s", time.perf_counter() - start)
    start = time.perf_counter()
    weights = "per-channel" if method == "qat" else RECIPES[method].weights
    out["row"] = _row(name, method, weights, _predict(q, x_test), float_pred, test_labels, float_acc)
    ctx.timing(f"{name}:{method}:evaluate_s", time.perf_counter() - start)
    if info:
        out["details"] = info
    return out


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    import onnxruntime

    from npuready.quant.recipes import RECIPES

    p = _params(ctx)
    methods = list(p["methods"] or RECIPES)
    done = list(outputs.values())
    rows = [o["row"] for o in done if "row" in o]
    calib_info = {o["model"]: o["calibration"] for o in done}
    details: dict[str, dict] = {}
    for o in done:
        details.setdefault(o["model"], {})
        if "details" in o:
            details[o["model"]][o["method"]] = o["details"]
    # per model: a QAT skipped for want of torch first (it is known before any recipe runs), then recipe failures
    skipped = [s for name in p["models"] for s in sorted(
        (o["skipped"] for o in done if o["model"] == name and "skipped" in o),
        key=lambda s: not s["error"].startswith("torch not installed"))]
    test_images = next((o["test_images"] for o in done), 0)
    return {
        "accuracy": {"evidence": "measured", "test_images": test_images,
                     "test_set": "committed Fashion-MNIST subset, test split (100 per class)",
                     "runtime": f"onnxruntime {onnxruntime.__version__} CPU, graph optimisations off (QDQ fake-quant)",
                     "activations": "int8 asymmetric per tensor", "weights": "int8 symmetric",
                     "rows": rows},
        "calibration": {"evidence": "measured", "models": calib_info},
        "method_details": {"evidence": "measured", "models": details},
        "failures": {"evidence": "measured", "rows": skipped},
        "methods": {"evidence": "reference",
                    "rows": [{"method": r.name, "weights": r.weights, "description": r.description}
                             for r in RECIPES.values() if r.name in methods]
                    + [{"method": "qat", "weights": "per-channel",
                        "description": "fake-quant fine-tuning from the zoo checkpoint (torch), min-max ranges"}]},
    }
