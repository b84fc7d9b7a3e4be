"""Generate ``docs/preprocess.md`` from the preset registry, the doctor's kinds and stored results.

Nothing on the page is typed by hand: preset values come from ``PRESETS``, mismatch kinds from
``doctor.KINDS``, numbers from ``experiments/{preprocess-doctor,norm-fusion}/result.json``.
``python -m npuready.preprocess.docs_page`` writes the file; ``tests/preprocess/test_docs_page.py``
fails when it is stale.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from npuready.preprocess.doctor import KINDS
from npuready.preprocess.presets import PRESETS
from npuready.preprocess.render import calibration_variant, steps
from npuready.preprocess.spec import PreprocessSpec

DOC_PATH = Path("docs") / "preprocess.md"
DOCTOR_RESULT = Path("experiments") / "preprocess-doctor" / "result.json"
FUSION_RESULT = Path("experiments") / "norm-fusion" / "result.json"


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _input(spec: PreprocessSpec) -> str:
    size = ("image size" if spec.limit_side is not None else "model size" if spec.output_size is None
            else "x".join(str(d) for d in spec.shape()))
    return f"{spec.dtype} {spec.color} {spec.layout} {size}, {spec.value_range}"


def _presets() -> list[str]:
    rows = ["| preset | model input | pipeline | calibrate with | values from |", "|---|---|---|---|---|"]
    for name, spec in PRESETS.items():
        rows.append(f"| `{name}` | {_cell(_input(spec))} | {_cell(' → '.join(steps(spec)))} | "
                    f"{_cell(calibration_variant(spec))} | {_cell(spec.source)} |")
    return rows


def _doctor(result: dict[str, Any] | None) -> list[str]:
    rows = ["| kind | meaning |", "|---|---|"] + [f"| `{k}` | {_cell(v)} |" for k, v in KINDS.items()]
    if result is None:
        return rows + ["", "_experiments/preprocess-doctor/result.json not present._"]
    res = result["results"]
    rows += ["", f"Measured by experiment `preprocess-doctor` on photos {', '.join(res['setup']['photos'])} "
                 "(each injection renders the same photo through `apply()` twice, one spec differing in one way):", "",
             "| injection | expected kinds | injected | no-op | detected (with spec) | exact (with spec) | "
             "detected (blind) | detected (+-1 LSB jitter) |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for name, s in res["injections"]["per_injection"].items():
        rows.append(f"| {name} | {', '.join(s['expected'])} | {s['injected']} | {s['no_op']} | "
                    f"{s['detected_with_spec']} | {s['exact_with_spec']} | {s['detected_blind']} | "
                    f"{s['detected_jitter']} |")
    if "combined" in res:
        rows += ["", "Two mismatches at once (with spec):", "",
                 "| combination | expected kinds | injected | detected | exact |", "|---|---|---:|---:|---:|"]
        for name, s in res["combined"]["per_combination"].items():
            rows.append(f"| {name} | {', '.join(s['expected'])} | {s['injected']} | {s['detected_with_spec']} | "
                        f"{s['exact_with_spec']} |")
    m = res["matched_pairs"]
    rows += ["", "No-op: the injection leaves that photo's tensor unchanged (a square photo fills a letterbox, so "
                 "there is no padding to differ); such pairs are not counted as injected.",
             "", f"Matched pairs (identical and +-1 LSB jitter): {m['pairs']}; false alarms with spec "
                 f"{m['false_alarms_with_spec']}, blind {m['false_alarms_blind']}."]
    return rows


def _fusion(result: dict[str, Any] | None) -> list[str]:
    if result is None:
        return ["_experiments/norm-fusion/result.json not present._"]
    res = result["results"]
    rows = [f"Measured by experiment `norm-fusion` (preset `{res['setup']['preset']}`, "
            f"{len(res['setup']['photos'])} photos, tolerance {res['setup']['tolerance']:g}): original model on "
            "normalised float32 vs fused model on raw pixels.", "",
            "| model | strategy | input | max abs diff | top-1 agree | within tolerance |",
            "|---|---|---|---:|---:|---|"]
    for r in res["photos"]["rows"]:
        rows.append(f"| {_cell(r['model'])} | {r['strategy']} | {r['input_dtype']} | {r['max_abs_diff']:.3g} | "
                    f"{r['top1_agree']}/{r['images']} | {'yes' if r['within_tolerance'] else 'no'} |")
    for r in res["zoo"]["rows"]:
        diff = f"{r['max_abs_diff']:.3g}" if r.get("fused") else "—"
        rows.append(f"| {_cell(r['model'])} | {r.get('strategy', 'not fused')} | {r.get('input_dtype', '—')} | {diff} "
                    f"| {str(r.get('top1_agree', '—'))}/{r.get('images', '—')} | "
                    f"{'—' if 'within_tolerance' not in r else 'yes' if r['within_tolerance'] else 'no'} |")
    cv = res["calibration_variant"]
    rows += ["", f"Calibration variant: fused model — {_cell(cv['fused_model'])}; original model — "
                 f"{_cell(cv['original_model'])}. {_cell(cv['rule'])}."]
    return rows


def _load(repo: Path, rel: Path) -> dict[str, Any] | None:
    path = repo / rel
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def render_markdown(repo: Path) -> str:
    lines = [
        "# Preprocessing contract",
        "",
        "<!-- GENERATED by npuready.preprocess.docs_page (python -m npuready.preprocess.docs_page). Do not edit. -->",
        "",
        "One frozen `PreprocessSpec` describes an image input: colour order, dtype, layout, resize (size, "
        "interpolation), centre crop, letterbox (size, pad value), scale, mean/std, and whether the "
        "normalisation is fused into the model. `npuready.preprocess.apply(spec, image)` is the only code that "
        "turns an image into a model input; the calibration-set builder and inference both call it. Order: "
        "decode → colour → resize → centre crop → letterbox → dtype → scale → mean/std → layout. Mean/std are "
        "listed in the spec's channel order.",
        "",
        "## Commands",
        "",
        "```sh",
        "npuready preprocess show                                  # every preset, its pipeline and calibration "
        "variant",
        "npuready preprocess show yolo_640 --model yolov8n.onnx    # exit 2 naming both sizes if the export is not "
        "640x640",
        "npuready preprocess apply photo.jpg --spec classification_torchvision -o runtime.npy",
        "npuready preprocess calib --spec classification_torchvision --images calib_dir/ --n 200 --seed 0 \\",
        "    --mode body --model resnet50.onnx --out calib/        # or --mode offload",
        "npuready preprocess diagnose --runtime runtime.npy --calib calib/sample_00000.npy --spec "
        "classification_torchvision",
        "npuready preprocess fuse resnet50.onnx --spec classification_torchvision -o resnet50_uint8.onnx",
        "```",
        "",
        "A spec can also be `zoo:<model>` (read from `zoo/zoo.json`) or a JSON file of spec fields.",
        "",
        "## Presets",
        "",
        "A fixed-size preset bound to a model of another size is refused (`npuready preprocess show yolo_640 "
        "--model m1280.onnx` exits 2 naming both sizes). Presets marked *model size* take it from the model.",
        "",
        *_presets(),
        "",
        "## Calibration sets (`npuready preprocess calib`)",
        "",
        "Stratified by class (round-robin over classes in a seeded order), seeded, `.npy` per sample plus "
        "`manifest.json`. Mode `body` (only the NPU body is compiled): tensors match the body input — the "
        "partition planner's first NPU body input for `--model`/`--target`, or `--body-input`; when that is not "
        "the image input the CPU head runs in onnxruntime and the body's input is saved (a fused model's "
        "uint8→float `Cast` head gives float32 0..255 tensors), otherwise each sample is saved per image in "
        "`--body-layout` (default HWC). Mode `offload` (CPU offload): tensors match the original model input "
        "(the spec's layout, batch 1).",
        "",
        "## Mismatch doctor (`npuready preprocess diagnose`)",
        "",
        "Compares a saved runtime input tensor with the calibration tensor of the same image, undoing one "
        "difference at a time (layout, letterbox, crop/resize, channel order, value scale) and printing one "
        "`MISMATCH <kind>` line per difference; exit 0 match, 1 mismatch, 2 bad input.",
        "",
        *_doctor(_load(repo, DOCTOR_RESULT)),
        "",
        "## Normalisation fusion (`npuready preprocess fuse`)",
        "",
        "`fold`: when the first Conv has no padding, scale/std go into its weights and the mean into its bias. "
        "`subtract`: when it pads, zero padding of the normalised input equals padding the raw input with the "
        "mean, which a weight fold cannot express, so one per-channel `Sub` stays in front and only scale/std "
        "are folded (exact at the border). `auto` picks between them. A uint8 input gets a `Cast`.",
        "",
        *_fusion(_load(repo, FUSION_RESULT)),
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    from npuready.atomic import write_text
    from npuready.paths import repo_root

    repo = repo_root()
    write_text(repo / DOC_PATH, render_markdown(repo))
    print(f"wrote {repo / DOC_PATH}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
