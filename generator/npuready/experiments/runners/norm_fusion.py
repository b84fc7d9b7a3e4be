"""Experiment `norm-fusion`: fused(raw uint8) vs original(normalised float) on real photos.

Subjects: seeded conv classifiers whose first Conv has no padding (pure weight fold) and has
padding (per-channel Sub + scale fold), the padded one also folded naively (mean into the bias)
to measure the border error that the subtract strategy avoids, and - when ``zoo/zoo.json``
exists - the zoo's Fashion-MNIST models on committed-subset test images. Records which tensors
calibrate each fused model and their measured value range.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npuready.experiments.context import RunContext


def _session(model):
    import onnxruntime as ort

    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


def _compare(original, fused, spec, images, input_name: str) -> dict[str, Any]:
    from npuready.preprocess.pipeline import apply

    so, sf = _session(original), _session(fused)
    diffs, agree, peak, lo, hi = [], 0, 0.0, np.inf, -np.inf
    raw_dtype = fused.graph.input[0].type.tensor_type.elem_type
    for img in images:
        raw = apply(spec, img)
        lo, hi = min(lo, float(raw.min())), max(hi, float(raw.max()))
        if raw_dtype == 1:  # float32 0..255 input variant
            raw = raw.astype(np.float32)
        a = so.run(None, {input_name: apply(spec.unfused(), img)})[0]
        b = sf.run(None, {input_name: raw})[0]
        diffs.append(float(np.abs(a - b).max()))
        agree += int(np.argmax(a) == np.argmax(b))
        peak = max(peak, float(np.abs(a).max()))
    return {"images": len(diffs), "max_abs_diff": max(diffs), "mean_max_abs_diff": float(np.mean(diffs)),
            "top1_agree": agree, "max_abs_output": peak, "calibration_range": [lo, hi]}


def _zoo_rows(ctx: RunContext, count: int, tolerance: float = 1e-4) -> list[dict[str, Any]]:
    from npuready.errors import InputError
    from npuready.preprocess.fusion import fuse_normalization
    from npuready.preprocess.zoo_spec import zoo_json_path, zoo_spec

    if not zoo_json_path().is_file():
        return []
    from npuready.data import fashion_mnist_subset

    ctx.input(zoo_json_path())
    images, _ = fashion_mnist_subset("test")
    rows = []
    for path in sorted((ctx.repo / "zoo").glob("*.onnx")):
        name = path.stem
        try:
            spec = zoo_spec(name)
        except InputError:
            continue
        fused_spec = spec.replace(dtype="uint8", fuse_normalization=True)
        ctx.input(path)
        try:
            result = fuse_normalization(path, fused_spec)
        except InputError as exc:
            rows.append({"model": f"zoo/{path.name}", "fused": False,
                         "reason": str(exc).replace(str(ctx.repo) + "/", "")})
            continue
        import onnx

        if spec.color == "GRAY":
            subjects, source = list(images[:count]), "Fashion-MNIST committed-subset test images"
        else:
            from npuready.data import photo
            from npuready.preprocess.sources import TEST_PHOTOS

            subjects, source = [photo(n) for n in TEST_PHOTOS], "sample photos"
        row = _compare(onnx.load(str(path)), result.model, fused_spec, subjects, result.input_name)
        rows.append({"model": f"zoo/{path.name}", "fused": True, "images_from": source, **result.to_dict(), **row,
                     "within_tolerance": row["max_abs_diff"] <= tolerance})
    return rows


def run(ctx: RunContext) -> dict[str, Any]:
    import onnxruntime

    from npuready.data import photo
    from npuready.preprocess.example_models import conv_classifier
    from npuready.preprocess.fusion import fuse_normalization
    from npuready.preprocess.presets import PRESETS

    ctx.tool("onnxruntime", onnxruntime.__version__)
    names = list(ctx.params.get("photos", ["astronaut", "chelsea", "coffee", "rocket", "china", "flower"]))
    spec = PRESETS[ctx.params.get("preset", "classification_torchvision")]
    seed = ctx.seed("weights", int(ctx.params.get("seed", 0)))
    tolerance = float(ctx.params.get("tolerance", 1e-4))
    images = [photo(n) for n in names]
    subjects = [
        ("conv_classifier first_pads=0", conv_classifier(first_pads=0, first_kernel=2, seed=seed), {}),
        ("conv_classifier first_pads=1", conv_classifier(first_pads=1, seed=seed), {}),
        ("conv_classifier first_pads=1, float32 0..255 input", conv_classifier(first_pads=1, seed=seed),
         {"input_dtype": "float32"}),
        ("conv_classifier first_pads=1, naive fold (mean in bias, ignores padding)",
         conv_classifier(first_pads=1, seed=seed), {"strategy": "fold", "_ignore_padding": True}),
    ]
    rows = []
    for label, model, options in ctx.progress(subjects, "fusion"):
        result = fuse_normalization(model, spec, **options)
        row = _compare(model, result.model, spec, images, result.input_name)
        rows.append({"model": label, **result.to_dict(), **row, "within_tolerance": row["max_abs_diff"] <= tolerance})
    zoo = _zoo_rows(ctx, int(ctx.params.get("zoo_images", 64)), tolerance)
    unfused = spec.unfused()
    return {
        "setup": {"evidence": "measured", "preset": spec.name, "photos": names, "tolerance": tolerance,
                  "comparison": "original model on apply(spec.unfused()) (normalised float32) vs fused model on "
                                "apply(spec) (raw uint8), onnxruntime CPU"},
        "photos": {"evidence": "measured", "rows": rows},
        "zoo": {"evidence": "measured", "rows": zoo,
                "note": "zoo/zoo.json not present when this ran" if not zoo else
                        "grey models on Fashion-MNIST committed-subset test images, RGB models on the sample photos"},
        "calibration_variant": {
            "evidence": "measured",
            "fused_model": "raw uint8 RGB after resize 256 / centre crop 224, before /255 and mean/std "
                           "(apply(spec) with fuse_normalization=true)",
            "original_model": f"normalised float32 (apply(spec.unfused()), value range {unfused.value_range})",
            "rule": "calibrate with exactly what the compiled model's input receives: the fused model's input "
                    "is raw uint8, so normalised-float calibration would be a mismatch (doctor kinds scale_255 + "
                    "normalization)",
        },
    }
