"""Make torchvision importable beside this project's local CPU build of torch.

Stock torchvision 0.28 fails at import against the local torch 2.13 build with
``operator torchvision::nms does not exist``: the error is raised by its two op-registration
modules, ``torchvision._meta_registrations`` and ``torchvision._autograd_registrations``, which
register fake/autograd kernels for torchvision's compiled C++ ops that this torch build never loaded.

``prepare()`` places empty stand-in modules under those two names in ``sys.modules`` before
torchvision is first imported, so its ``import`` statements find them and skip the registration.
Nothing installed is edited. What stays unusable: torchvision's compiled ops themselves
(``torchvision.ops.nms``, ``roi_align``, image/video decoding). Model *definitions* (SqueezeNet,
ShuffleNetV2, …) are plain torch and build fine; timm and ultralytics import torchvision, so they
need this too. Weights are never downloaded: every model built here is randomly initialised.
"""
from __future__ import annotations

import os
import sys
import tempfile
import types
from pathlib import Path

# torchvision's op-registration modules: they register kernels for compiled ops this torch never loaded.
OP_REGISTRATION_MODULES = ("torchvision._meta_registrations", "torchvision._autograd_registrations")


def _stand_in(name: str) -> types.ModuleType:
    module = types.ModuleType(name, "npuready stand-in: torchvision's compiled-op registrations are skipped "
                                    "(the compiled ops do not load beside the local torch build)")
    module.__npuready_stand_in__ = True
    return module


def prepare_torchvision() -> None:
    """Install the stand-ins (idempotent). Harmless once torchvision is already imported."""
    if "torchvision" in sys.modules:
        return
    for name in OP_REGISTRATION_MODULES:
        sys.modules.setdefault(name, _stand_in(name))


def prepare_ultralytics() -> None:
    """ultralytics: never reach the network (``YOLO_OFFLINE=1``) and keep its settings file in a writable
    folder of ours (``YOLO_CONFIG_DIR``) rather than the user's home; both only if the user has not set them."""
    os.environ.setdefault("YOLO_OFFLINE", "1")
    if "YOLO_CONFIG_DIR" not in os.environ:
        folder = Path(tempfile.gettempdir()) / "npuready-ultralytics"
        folder.mkdir(parents=True, exist_ok=True)
        os.environ["YOLO_CONFIG_DIR"] = str(folder)
    os.environ.setdefault("YOLO_VERBOSE", "False")
    prepare_torchvision()


def import_ultralytics():
    """Import ultralytics offline and undo the two global monkey-patches its import applies:
    ``PIL.Image.open`` (replaced by a wrapper that, on an unidentified image, tries to install and register
    ``pi-heif``) and ``torch.save`` (wrapped with retries). npuready decodes images and saves checkpoints in
    the same process; they must behave as their libraries define them, not as ultralytics re-wires them."""
    prepare_ultralytics()
    import torch
    from PIL import Image

    image_open, torch_save = Image.open, torch.save
    import ultralytics

    Image.open, torch.save = image_open, torch_save
    return ultralytics
