"""Text rendering of specs and diagnoses (reports are data; this only formats them)."""
from __future__ import annotations

from npuready.preprocess.doctor import Diagnosis
from npuready.preprocess.spec import PreprocessSpec


def _nums(values) -> str:
    return "(" + ", ".join(f"{v:g}" for v in values) + ")"


def _size(size) -> str:
    return f"{size[0]}x{size[1]}"


_STYLES = {"top_left": "image at the top-left", "pad_then_resize": "padded to the box's aspect, then resized",
           "height": "full height, width capped, padded on the right"}


def steps(spec: PreprocessSpec) -> list[str]:
    """The ordered pipeline of ``spec`` in words; fused steps are marked as done inside the model."""
    out = [f"decode to {spec.color}"]
    how = spec.interpolation if spec.resizer == "pillow" else f"{spec.resizer} {spec.interpolation}"
    style = "" if spec.letterbox_style == "center" else f" ({_STYLES[spec.letterbox_style]})"
    pad = f"pad {spec.pad_value}" if spec.pad_output is None else f"pad {spec.pad_output:g} after normalisation"
    if spec.limit_side is not None:
        side = "shorter side up to" if spec.limit_type == "min" else "longer side down to"
        multiple = f", each side rounded to a multiple of {spec.size_multiple}" if spec.size_multiple else ""
        out.append(f"resize {side} {spec.limit_side}{multiple} ({how})")
    if spec.fit_model_size == "resize":
        out.append(f"resize to the model's input size ({how})")
    elif spec.fit_model_size == "letterbox":
        out.append(f"letterbox to the model's input size{style}, {pad} ({how})")
    if isinstance(spec.resize, int):
        out.append(f"resize shorter side to {spec.resize} ({how})")
    elif spec.resize is not None:
        out.append(f"resize to {_size(spec.resize)} ({how})")
    if spec.center_crop:
        out.append(f"centre crop {_size(spec.center_crop)}")
    if spec.letterbox:
        out.append(f"aspect-preserving resize + letterbox {_size(spec.letterbox)}{style}, {pad} ({how})")
    where = " [fused into the model]" if spec.fuse_normalization else ""
    out.append(f"{spec.dtype}" + (" (model input boundary)" if spec.fuse_normalization else ""))
    if spec.scale is not None:
        out.append(f"x * {spec.scale:.6g}{where}")
    if spec.mean is not None:
        out.append(f"(x - mean {_nums(spec.mean)}) / std {_nums(spec.std)}{where}")
    out.append(f"layout {spec.layout}")
    return out


def calibration_variant(spec: PreprocessSpec) -> str:
    if spec.fuse_normalization:
        return (f"raw uint8 {spec.color} after resize/crop/letterbox, before normalisation "
                "(the model does scale/mean/std)")
    return f"{spec.dtype} {spec.value_range} tensors, exactly as the model input"


def spec_text(spec: PreprocessSpec) -> str:
    size = spec.output_size
    lines = [f"{spec.name}: {spec.description}".rstrip(": ")]
    for i, s in enumerate(steps(spec), 1):
        lines.append(f"  {i}. {s}")
    shape = ("follows the image (side limit; a pinned model fixes it)" if spec.limit_side is not None
             else "from the model" if size is None else "x".join(str(d) for d in spec.shape()))
    lines += [f"  input: {spec.dtype} {spec.layout} {shape}, values {spec.value_range}",
              f"  calibration: {calibration_variant(spec)}",
              f"  source: {spec.source}" if spec.source else ""]
    return "\n".join(x for x in lines if x) + "\n"


def diagnosis_text(d: Diagnosis) -> str:
    if d.matched:
        diff = "" if d.max_abs_diff is None else f" (max abs diff {d.max_abs_diff:.4g})"
        notes = "".join(f"NOTE: {n}\n" for n in d.notes)
        return f"MATCH: runtime {d.runtime} agrees with calibration {d.calibration}{diff}\n{notes}"
    return "".join(f"MISMATCH {f.kind}: {f.message}\n" for f in d.findings)
