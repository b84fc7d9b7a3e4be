"""Experiment `parity-ladder`: float → fake-quant → integer accuracy, agreement and per-tensor mismatch.

Per zoo model and PTQ method: accuracy of the float model (onnxruntime), its QDQ model as fake-quant
(onnxruntime, no fusion) and the integer engine (C++ twin, rounding profile ``tflite-ref``) on the
Fashion-MNIST test subset; top-1 agreement between rungs; per-tensor int8 code mismatch between
integer and fake-quant, propagated and local; the first op diverging by more than 1 LSB; and the
plain-words explanation the `npuready verify` report prints. Unit of work: one model x one method.
"""
from __future__ import annotations

from npuready.experiments.context import RunContext
from npuready.experiments.task import Task


def tasks(ctx: RunContext) -> list[Task]:
    """One task per model x PTQ method."""
    return [Task(f"{n}:{m}", {"model": n, "method": m}) for n in ctx.params["models"] for m in ctx.params["methods"]]


def run_task(ctx: RunContext, args: dict) -> dict:
    from importlib.metadata import version

    from npuready.quant.inputs import load_inputs
    from npuready.quant.zoo_qdq import quantize_zoo, zoo_path
    from npuready.verify.ladder import run_ladder

    p = ctx.params
    for dist in ("onnxruntime", "onnx", "numpy"):
        ctx.tool(dist, version(dist))
    ctx.seed("calibration", p.get("seed", 0))
    name, method = args["model"], args["method"]
    ctx.input(zoo_path(name))
    fm, qdq = quantize_zoo(name, method, p["calibration_images"], p.get("seed", 0))
    # The model's input shape picks its zoo contract (28×28 grey or the 64×64 RGB preset).
    shape = tuple(d.dim_value or 1 for d in fm.graph.input[0].type.tensor_type.shape.dim)
    data = load_inputs("fashion-mnist:test", p["images"], shape)
    r = run_ladder(fm, qdq, data.x, data.labels, rounding=p.get("rounding", "tflite-ref"),
                   engine=p.get("engine", "cpp"), model_name=name, progress=ctx.progress).to_dict()
    changed = [t for t in r["tensors"] if t["mismatch_propagated"] > 0]
    return {
        "model": name, "method": method, "images": int(len(data.x)),
        "row": {
            "accuracy_float": r["accuracy"]["float"], "accuracy_fake_quant": r["accuracy"]["fake_quant"],
            "accuracy_integer": r["accuracy"]["integer"],
            "top1_agreement_integer_vs_float": r["agreement"]["integer_vs_float"],
            "top1_agreement_fake_quant_vs_float": r["agreement"]["fake_quant_vs_float"],
            "top1_agreement_integer_vs_fake_quant": r["agreement"]["integer_vs_fake_quant"],
            "tensors": len(r["tensors"]), "tensors_with_mismatch": len(changed),
            "output_code_mismatch": r["tensors"][-1]["mismatch_propagated"],
            "first_divergence": r["first_divergence"], "explanation": r["explanation"],
            "per_tensor": r["tensors"], "rounding_profile": r["rounding_profile"], "engine": r["engine"],
        },
    }


def merge(ctx: RunContext, outputs: dict) -> dict:
    results: dict = {}
    for o in outputs.values():
        entry = results.setdefault(o["model"], {"evidence": "measured", "images": o["images"], "methods": {}})
        entry["methods"][o["method"]] = o["row"]
    return results
