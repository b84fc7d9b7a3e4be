"""Calibration-set builder: a stratified, seeded sample written as .npy tensors plus a manifest.

Tensors come from ``pipeline.apply`` (the same function inference uses) and are laid out for
the compile mode (what the compiled graph's input is):

* ``offload`` - CPU offload keeps the CPU head in the compiled graph, so calibration data match
  the *original model input* (the spec's layout, e.g. NCHW with batch 1).
* ``body`` - only the NPU body is compiled, so calibration data match the *body input*: given
  ``body_input``, or with a model and ``target`` the first NPU body's input from the partition
  planner. When that is not the image input the CPU head runs in onnxruntime and the body's
  input tensor is saved; when the body starts at the image input each sample is saved per image
  in ``body_layout`` (default HWC, the usual body-only calibration file).
"""
from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from npuready.errors import InputError
from npuready.preprocess.pipeline import ImageLike, apply, to_layout
from npuready.preprocess.spec import LAYOUTS, PreprocessSpec

MODES = ("body", "offload")
MANIFEST = "manifest.json"


def stratified_indices(labels: Sequence[Any], n: int, seed: int) -> np.ndarray:
    """``n`` indices spread as evenly as possible over the classes (seeded, no repeats), sorted."""
    labels = np.asarray(labels)
    if n <= 0 or n > len(labels):
        raise InputError(f"calibration size {n}: must be between 1 and the {len(labels)} available images")
    rng = np.random.default_rng(seed)
    classes = np.unique(labels)
    pools = {c: rng.permutation(np.flatnonzero(labels == c)) for c in classes}
    want = {c: 0 for c in classes}
    remaining = n
    while remaining:  # round-robin in a seeded class order; full classes drop out
        open_classes = [c for c in rng.permutation(classes) if want[c] < len(pools[c])]
        for c in open_classes[:remaining]:
            want[c] += 1
        remaining -= min(remaining, len(open_classes))
    return np.sort(np.concatenate([pools[c][: want[c]] for c in classes]))


UNLABELLED = "unlabelled"


def manifest_labels(labels: Sequence[Any]) -> tuple[list[int | None], list[str] | None]:
    """Labels as the manifest schema wants them (``npuready.inputs.manifest``: a class index or null).

    None and "" (an image at the top of an image folder) become null; integers, and names that spell
    one (folder ``3/``), stay that index; otherwise every name becomes its index in the sorted list of
    names, returned as ``classes`` so the manifest still says which is which.
    """
    values = [np.asarray(v).item() if isinstance(v, np.generic) else v for v in labels]
    named = [v for v in values if v is not None and v != ""]

    def index(v: Any) -> int | None:
        if isinstance(v, bool):
            return None
        if isinstance(v, int):
            return v if v >= 0 else None
        text = str(v).strip()
        return int(text) if text.isdigit() else None

    if all(index(v) is not None for v in named):
        return [None if v is None or v == "" else index(v) for v in values], None
    classes = sorted({str(v) for v in named})
    return [None if v is None or v == "" else classes.index(str(v)) for v in values], classes


@dataclass(frozen=True)
class CalibrationSet:
    folder: Path
    files: tuple[str, ...]
    shape: tuple[int, ...]
    dtype: str
    layout: str
    manifest: dict[str, Any]


def _npy_bytes(x: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, x, allow_pickle=False)
    return buf.getvalue()


def _head_runner(model: str | os.PathLike, tensor: str, feed_name: str) -> Callable[[np.ndarray], np.ndarray]:
    """A function running the CPU head of ``model`` up to ``tensor`` (the NPU body's input)."""
    import onnx
    import onnxruntime as ort

    from npuready.graph import load

    graph = load(model)
    if tensor not in graph.tensors and tensor not in graph.producers:
        raise InputError(f"model {graph.path or graph.name}: no tensor named {tensor!r} for the body input")
    m = onnx.ModelProto()
    m.CopyFrom(graph.model)
    del m.graph.output[:]
    m.graph.output.append(onnx.ValueInfoProto(name=tensor))
    session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return lambda x: session.run([tensor], {feed_name: x})[0]


def planned_body_input(model: str | os.PathLike, target: str, image_input: str | None) -> str | None:
    """The first NPU body's input per the partition planner; None when the body starts at the image input."""
    from npuready.partition import plan_partition

    plan = plan_partition(model, target)
    bodies = plan.calibration["body_only"]["tensors"]
    if not bodies:
        raise InputError(f"model {model}: no NPU body on target {target!r}; calibrate for CPU offload (--mode offload)")
    name, tensors = next(iter(bodies.items()))
    names = [t["name"] for t in tensors]
    if len(names) != 1:
        raise InputError(f"model {model}: {name} has {len(names)} inputs ({', '.join(names)}); name the one to "
                         "calibrate with --body-input")
    return None if names[0] == image_input else names[0]


def build_calibration_set(images: Sequence[ImageLike], labels: Sequence[Any], spec: PreprocessSpec,
                          folder: str | os.PathLike, n: int = 100, seed: int = 0, mode: str = "body",
                          model: str | os.PathLike | None = None, body_input: str | None = None,
                          body_layout: str = "HWC", source: str = "", target: str | None = None,
                          companions: Mapping[str, Sequence[np.ndarray]] | None = None,
                          progress: Callable[[Sequence[int]], Any] | None = None) -> CalibrationSet:
    """Write ``n`` stratified calibration tensors and ``manifest.json`` into ``folder``.

    ``companions`` (multimodal models): other model inputs per source image, by input name; the
    chosen samples' companions are written beside the image tensor (``sample_00000.<name>.npy``)
    so every calibration sample stays aligned across modalities.
    """
    from npuready.atomic import write_bytes, write_json
    from npuready.preprocess.bind import bind_to_model

    if mode not in MODES:
        raise InputError(f"calibration mode {mode!r}: choose 'body' (NPU body only) or 'offload' (CPU offload)")
    if body_layout not in LAYOUTS:
        raise InputError(f"body layout {body_layout!r}: choose one of {', '.join(LAYOUTS)}")
    if len(images) != len(labels):
        raise InputError(f"calibration source: {len(images)} images but {len(labels)} labels")
    for key, values in (companions or {}).items():
        if len(values) != len(images):
            raise InputError(f"companion input {key!r}: {len(values)} samples for {len(images)} images; "
                             "give one per image, in the same order")
    if body_input and mode != "body":
        raise InputError("--body-input only applies to mode 'body'")
    if body_input and model is None:
        raise InputError("--body-input needs --model (the head is run to produce the body's input)")
    if model is not None:
        spec = bind_to_model(spec, model)
    if mode == "body" and model is not None and body_input is None and target is not None:
        body_input = planned_body_input(model, target, spec.image_input)
    head = _head_runner(model, body_input, spec.image_input) if body_input else None
    chosen = stratified_indices(labels, n, seed)
    label_of, classes = manifest_labels(labels)
    out = Path(folder)
    samples, shape, dtype = [], None, None
    layout = spec.layout if mode == "offload" else (f"body input {body_input}" if head else body_layout)
    for k, i in enumerate(progress(chosen) if progress else chosen):
        x = apply(spec, images[int(i)])
        if head is not None:
            x = np.ascontiguousarray(head(x))
        elif mode == "body":
            x = to_layout(x, spec.layout, body_layout)
        name = f"sample_{k:05d}.npy"
        write_bytes(out / name, _npy_bytes(x))
        shape, dtype = tuple(x.shape), str(x.dtype)
        extra = {}
        for key, values in (companions or {}).items():
            extra[key] = f"sample_{k:05d}.{key}.npy"
            write_bytes(out / extra[key], _npy_bytes(np.asarray(values[int(i)])))
        samples.append({"file": name, "label": label_of[int(i)], "index": int(i),
                        **({"class": classes[label_of[int(i)]]} if classes and label_of[int(i)] is not None else {}),
                        **({"companions": extra} if extra else {})})
    per_class: dict[str, int] = {}
    for i in chosen:
        key = UNLABELLED if labels[int(i)] is None or labels[int(i)] == "" else str(np.asarray(labels[int(i)]).item())
        per_class[key] = per_class.get(key, 0) + 1
    manifest = {
        "mode": mode,
        "rule": ("NPU body only: calibration matches the body input" if mode == "body"
                 else "CPU offload: calibration matches the original model input"),
        "layout": layout, "shape": list(shape or ()), "dtype": dtype, "count": len(samples), "seed": seed,
        "body_input": body_input, "model": str(model) if model is not None else None, "source": source,
        "target": target,
        "spec": spec.to_dict(), "per_class": per_class, **({"classes": classes} if classes else {}),
        "samples": samples,
    }
    write_json(out / MANIFEST, manifest)
    return CalibrationSet(out, tuple(s["file"] for s in samples), shape or (), dtype or "", layout, manifest)
