"""Build a recipe's torch module from the library that defines it: offline, random-initialised weights.

One builder per library (an explicit registry). Every builder returns the module in eval mode, ready
for export: timm RepVGG reparameterised to its deploy form; ultralytics models prepared the way
ultralytics' own ONNX exporter (``ultralytics/engine/exporter.py``) prepares them — parameters
frozen, eval, float, ``fuse()`` (Conv+BN folded), every ``Detect`` head (and its Segment/Pose
subclasses) set to ``export=True, format="onnx", dynamic=False``, ``C2f`` using ``forward_split``;
NMS is not added to the graph. Needs the ``corpus`` extra.
"""
from __future__ import annotations

import importlib.util
from typing import Callable

from npuready.errors import InputError
from npuready.models.library.recipes import Recipe

SEED = 0
EXTRA_HINT = "pip install 'npuready[corpus]'"


def require(recipe: Recipe) -> None:
    """Raise one clear InputError when the libraries this recipe needs are not installed."""
    needed = ["torch", "torchvision"] + ([recipe.library] if recipe.library != "torchvision" else [])
    missing = [m for m in needed if importlib.util.find_spec(m) is None]
    if missing:
        raise InputError(f"library model '{recipe.name}' is built by {recipe.library}, which needs "
                         f"{', '.join(missing)} (the corpus extra, not in the core install): {EXTRA_HINT}")


def _timm(recipe: Recipe, image_size: int):
    from npuready.models.library.stubs import prepare_torchvision

    prepare_torchvision()
    import timm

    kwargs = {"img_size": image_size} if recipe.fixed_size and image_size != recipe.image_size else {}
    model = timm.create_model(recipe.constructor, pretrained=False, **kwargs)
    if recipe.reparameterize:
        from timm.utils.model import reparameterize_model

        model = reparameterize_model(model)
    return model


def _torchvision(recipe: Recipe, image_size: int):
    from npuready.models.library.stubs import prepare_torchvision

    prepare_torchvision()
    import torchvision

    return getattr(torchvision.models, recipe.constructor)(weights=None)


def _ultralytics(recipe: Recipe, image_size: int):
    from npuready.models.library.stubs import import_ultralytics

    import_ultralytics()
    import torch
    from ultralytics import YOLO
    from ultralytics.nn.modules import C2f, Detect

    if image_size % 32:
        raise InputError(f"library model '{recipe.name}': image size {image_size} is not a multiple of 32 "
                         "(the YOLO stride); pick e.g. 320 or 640")
    model = YOLO(recipe.constructor, task=recipe.task, verbose=False).model
    for p in model.parameters():
        p.requires_grad = False
    model.eval()
    model.float()
    model = model.fuse(verbose=False, imgsz=image_size)
    for m in model.modules():
        if isinstance(m, Detect):  # Segment and Pose are Detect subclasses
            m.dynamic = False
            m.export = True
            m.format = "onnx"
            m.shape = None
        elif isinstance(m, C2f):
            m.forward = m.forward_split
    with torch.no_grad():  # the exporter's dry run: lets the head cache its anchors for this size
        model(torch.zeros(1, 3, image_size, image_size))
    return model


BUILDERS: dict[str, Callable] = {"timm": _timm, "torchvision": _torchvision, "ultralytics": _ultralytics}


def build_module(recipe: Recipe, image_size: int | None = None):
    """The recipe's module, eval mode, weights drawn after ``torch.manual_seed(0)`` (random, not trained)."""
    require(recipe)
    import torch

    torch.manual_seed(SEED)
    model = BUILDERS[recipe.library](recipe, image_size or recipe.image_size)
    return model.eval()
