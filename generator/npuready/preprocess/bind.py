"""Fit a spec to a model's image input: fill a model-sized preset, refuse one of the wrong size.

``bind_to_model(spec, model)`` finds the image input (the spec's ``image_input``, else the only
input of rank 3/4), reads its (H, W, C) in the spec's layout and returns the spec with its
size filled. A fixed-size preset that disagrees (``yolo_640`` on a 1280x1280 export) raises
InputError naming both sizes.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import onnx

from npuready.errors import InputError
from npuready.preprocess.spec import PreprocessSpec


@dataclass(frozen=True)
class ImageInput:
    """The model input an image spec feeds."""

    name: str
    shape: tuple
    dtype: str | None

    def dims(self, layout: str) -> tuple:
        """(H, W, C) of this input read in ``layout`` (entries may be symbolic or None)."""
        s = self.shape
        if layout == "HWC" and len(s) == 3:
            return s[0], s[1], s[2]
        if layout == "NHWC" and len(s) == 4:
            return s[1], s[2], s[3]
        if layout == "NCHW" and len(s) == 4:
            return s[2], s[3], s[1]
        raise InputError(f"model input {self.name!r}: shape {list(s)} has rank {len(s)}, "
                         f"but the spec's layout is {layout}; set the spec's layout to the model's")


def image_input(model: str | os.PathLike | onnx.ModelProto, name: str | None = None) -> ImageInput:
    from npuready.graph import load

    graph = load(model)
    where = f"model {graph.path or graph.name}"
    inputs = list(graph.inputs)
    if name is not None:
        chosen = [i for i in inputs if i.name == name]
        if not chosen:
            raise InputError(f"{where}: no input named {name!r}; inputs are {', '.join(i.name for i in inputs)}")
    else:
        chosen = [i for i in inputs if i.shape is not None and len(i.shape) in (3, 4)]
        if len(chosen) != 1:
            raise InputError(f"{where}: {len(chosen)} image-like inputs ({', '.join(i.name for i in inputs)}); "
                             "name the image input (spec image_input / --image-input)")
    info = chosen[0]
    if info.shape is None:
        raise InputError(f"{where}: input {info.name!r} has unknown rank; export with static shapes")
    return ImageInput(info.name, tuple(info.shape), info.dtype)


def bind_to_model(spec: PreprocessSpec, model: str | os.PathLike | onnx.ModelProto) -> PreprocessSpec:
    """``spec`` with its image size taken from / checked against the model's image input."""
    inp = image_input(model, spec.image_input)
    h, w, c = inp.dims(spec.layout)
    label = f"model input {inp.name!r} {list(inp.shape)}"
    if isinstance(c, int) and c != spec.channels:
        raise InputError(f"spec {spec.name!r}: makes {spec.channels}-channel {spec.color} images but {label} "
                         f"has {c} channels")
    if inp.dtype == "uint8" and spec.dtype != "uint8":
        raise InputError(f"spec {spec.name!r}: makes {spec.dtype} tensors but {label} takes uint8; "
                         "use a uint8 (fused-normalisation) spec")
    static = isinstance(h, int) and isinstance(w, int)
    size = spec.output_size
    if spec.limit_side is not None:  # PaddleOCR's detector rule follows the image; a pinned model fixes the size
        if not static:
            return spec.replace(image_input=inp.name)
        m = spec.size_multiple or 1
        if h % m or w % m:
            raise InputError(f"spec {spec.name!r}: sizes must be multiples of {m}, but {label} is {h}x{w}; "
                             f"pin it to a multiple of {m} with --input-shape")
        return spec.with_size((h, w)).replace(image_input=inp.name)
    if spec.fit_model_size:
        if not static:
            raise InputError(f"spec {spec.name!r}: takes its size from the model, but {label} has no static "
                             "height/width; export with a fixed size or use a preset with one")
        return spec.with_size((h, w)).replace(image_input=inp.name)
    if size is None:
        raise InputError(f"spec {spec.name!r}: output size follows the image; give it a fixed size")
    if static and (h, w) != size:
        from npuready.preprocess.presets import PRESETS

        fitting = [n for n, p in PRESETS.items() if p.output_size == (h, w)] or ["a spec"]
        raise InputError(f"spec {spec.name!r}: makes {size[0]}x{size[1]} images but {label} is {h}x{w}; "
                         f"use {' or '.join(fitting)} of size {h}x{w}, or re-export the model at "
                         f"{size[0]}x{size[1]}")
    return spec.replace(image_input=inp.name)
