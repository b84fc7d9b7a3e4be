"""The zoo registry: one entry per model name (explicit dict), with its input contract and recipe.

Input contract for the Fashion-MNIST classifiers: float32 1×1×28×28, ``(x/255 - MEAN) / STD``.
The detector takes float32 1×3×96×96 RGB, ``x/255`` (mean 0, std 1). The ``*_fm64`` entries are
library-defined architectures (timm, torchvision) trained on Fashion-MNIST through the preprocessing
preset ``fashion_mnist_64_rgb`` (grey → RGB, 64×64 bilinear, x/255, mean/std): the preset is their
input contract for training, calibration and inference. All are written to ``zoo/zoo.json`` by the
trainer so other stages never re-type them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from torch import nn

from npuready.models.detector import Detector
from npuready.models.mobilenetv2 import MobileNetV2Small
from npuready.models.resnet20 import ResNet20
from npuready.models.tinycnn import TinyCNN
from npuready.models.vit_tiny import ViTTiny
from npuready.models.library.classifier import classifier
from npuready.preprocess.presets import FASHION_MNIST_MEAN, FASHION_MNIST_RGB_SIZE, FASHION_MNIST_STD

#: Fashion-MNIST training-set pixel mean and std of x/255 (the contract; defined with the presets).
FASHION_MEAN = FASHION_MNIST_MEAN
FASHION_STD = FASHION_MNIST_STD


@dataclass(frozen=True)
class Recipe:
    """How the trainer trains one model (defaults of ``npuready train``)."""
    epochs: int
    batch: int
    optimizer: str          # "sgd" (momentum 0.9, nesterov) or "adamw"
    lr: float               # OneCycle peak learning rate
    weight_decay: float
    label_smoothing: float = 0.0
    augment: bool = True    # random ±2-pixel shift + horizontal flip (off for very short budgets)


@dataclass(frozen=True)
class ZooSpec:
    name: str
    kind: str                                  # "classifier" or "detector"
    build: Callable[[], nn.Module]
    input_shape: tuple[int, int, int, int]
    mean: tuple[float, ...]
    std: tuple[float, ...]
    recipe: Recipe
    target: float                              # the accuracy (or mAP@0.5) the issue asks for
    description: str
    preset: str | None = None                  # preprocessing preset that IS the input contract (else mean/std)
    library: tuple[str, str] | None = None     # (library, constructor) of a library-defined architecture


def _fm64(library: str, constructor: str, recipe: Recipe, target: float, description: str) -> ZooSpec:
    """A library-defined architecture trained on Fashion-MNIST through the ``fashion_mnist_64_rgb`` preset."""
    size = FASHION_MNIST_RGB_SIZE
    return ZooSpec(f"{constructor}_fm64", "classifier", classifier(library, constructor), (1, 3, size, size),
                   (FASHION_MNIST_MEAN,) * 3, (FASHION_MNIST_STD,) * 3, recipe, target,
                   f"{description} ({library} `{constructor}`, 10-class head, Fashion-MNIST as 64×64 RGB)",
                   preset="fashion_mnist_64_rgb", library=(library, constructor))


#: Short CPU-time budgets (``npuready train --budget``) for the library architectures: no augmentation.
_LIBRARY_RECIPE = Recipe(epochs=2, batch=64, optimizer="adamw", lr=3e-3, weight_decay=1e-4, augment=False)


ZOO: dict[str, ZooSpec] = {
    "tinycnn": ZooSpec("tinycnn", "classifier", TinyCNN, (1, 1, 28, 28), (FASHION_MEAN,), (FASHION_STD,),
                       Recipe(epochs=3, batch=256, optimizer="adamw", lr=6e-3, weight_decay=5e-4, augment=False),
                       0.90, "tiny CNN (3 conv blocks + Gemm) for the quickstart; one-minute training budget"),
    "resnet20": ZooSpec("resnet20", "classifier", ResNet20, (1, 1, 28, 28), (FASHION_MEAN,), (FASHION_STD,),
                        Recipe(epochs=6, batch=128, optimizer="sgd", lr=0.1, weight_decay=5e-4),
                        0.92, "ResNet-20 (CIFAR variant, 16/32/64 channels, 1×1 projection shortcuts)"),
    "mobilenetv2": ZooSpec("mobilenetv2", "classifier", MobileNetV2Small, (1, 1, 28, 28), (FASHION_MEAN,),
                           (FASHION_STD,),
                           Recipe(epochs=6, batch=128, optimizer="adamw", lr=4e-3, weight_decay=1e-4),
                           0.91, "MobileNetV2-style (inverted residuals, depthwise 3×3, ReLU6 → Clip)"),
    "vit_tiny": ZooSpec("vit_tiny", "classifier", ViTTiny, (1, 1, 28, 28), (FASHION_MEAN,), (FASHION_STD,),
                        Recipe(epochs=10, batch=128, optimizer="adamw", lr=2e-3, weight_decay=0.05,
                               label_smoothing=0.1),
                        0.88, "tiny ViT (4×4 patches, dim 64, depth 4, 4 heads; LayerNorm, GELU, softmax)"),
    "detector": ZooSpec("detector", "detector", Detector, (1, 3, 96, 96), (0.0, 0.0, 0.0), (1.0, 1.0, 1.0),
                        Recipe(epochs=12, batch=32, optimizer="adamw", lr=3e-3, weight_decay=1e-4),
                        0.80, "anchor-free YOLO-style detector (stride 8, 12×12 grid, ltrb + class logits)"),
    "mobilenetv3_small_050_fm64": _fm64("timm", "mobilenetv3_small_050", _LIBRARY_RECIPE, 0.85,
                                        "MobileNetV3-Small 0.5× (hard-swish, squeeze-excite)"),
    "mobilenetv2_050_fm64": _fm64("timm", "mobilenetv2_050", _LIBRARY_RECIPE, 0.85,
                                  "MobileNetV2 0.5× (inverted residuals, ReLU6)"),
    "squeezenet1_1_fm64": _fm64("torchvision", "squeezenet1_1",
                                Recipe(epochs=2, batch=64, optimizer="adamw", lr=1e-3, weight_decay=1e-4,
                                       augment=False),
                                0.85, "SqueezeNet 1.1 (fire modules, ceil-mode MaxPool, no BatchNorm)"),
}


def spec(name: str) -> ZooSpec:
    from npuready.errors import InputError

    if name not in ZOO:
        raise InputError(f"zoo model {name!r}: unknown; choose one of {', '.join(ZOO)}")
    return ZOO[name]
