"""Train a zoo classifier on the full Fashion-MNIST training set (60k) and score it on the test set (10k).

Whole-tensor pipeline (no DataLoader): the data sit in memory as one float tensor, each batch gets
a random ±2-pixel shift (zero padding) and a random horizontal flip. Models whose contract is a
preprocessing preset (the ``*_fm64`` library architectures) keep the uint8 images instead and build
each batch through that preset (``contract_images``), without augmentation. One-cycle schedule over a fixed
number of epochs, or over a time budget (``npuready.models.budget``); SGD with Nesterov momentum or
AdamW as the zoo recipe says. Wall and CPU time of the optimisation loop are measured.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from npuready.data.debian_fashion_mnist import fashion_mnist
from npuready.errors import InputError
from npuready.models.budget import Budget
from npuready.models.loop import train_loop
from npuready.models.zoo import ZooSpec


@dataclass(frozen=True)
class TrainResult:
    model: nn.Module
    train_seconds: float
    train_cpu_seconds: float
    test_accuracy: float
    test_images: int
    epochs: float
    history: tuple[dict, ...]

    @property
    def metrics(self) -> dict:
        return {"test_accuracy": self.test_accuracy, "test_images": self.test_images,
                "test_set": "Fashion-MNIST test (full, Debian package)"}


def normalise(images: np.ndarray, mean: float, std: float) -> torch.Tensor:
    """uint8 N×28×28 → float32 N×1×28×28, (x/255 - mean) / std — the zoo's input contract."""
    x = torch.from_numpy(images).float().div_(255.0).unsqueeze(1)
    return (x - mean) / std


def network_inputs(spec: ZooSpec, images: np.ndarray):
    """What the network sees: the preset's contract applied per batch (``*_fm64``) or the 28×28 tensor."""
    if spec.preset is None:
        return normalise(images, spec.mean[0], spec.std[0])
    from npuready.models.contract_images import ContractImages
    from npuready.preprocess.presets import preset

    return ContractImages(images, preset(spec.preset))


def augment(x: torch.Tensor, generator: torch.Generator, shift: int = 2) -> torch.Tensor:
    """Random ±shift translation with zero padding (in normalised space: pad with the value of 0) and flip."""
    b, _, h, w = x.shape
    background = x.amin()  # normalised value of a black pixel
    padded = torch.nn.functional.pad(x, (shift,) * 4, value=float(background))
    dy = torch.randint(0, 2 * shift + 1, (b,), generator=generator)
    dx = torch.randint(0, 2 * shift + 1, (b,), generator=generator)
    rows = (dy[:, None] + torch.arange(h))[:, :, None]
    cols = (dx[:, None] + torch.arange(w))[:, None, :]
    out = padded[torch.arange(b)[:, None, None], 0, rows, cols].unsqueeze(1)
    flip = torch.rand(b, generator=generator) < 0.5
    out[flip] = out[flip].flip(-1)
    return out


@torch.no_grad()
def evaluate(model: nn.Module, x: torch.Tensor, y: torch.Tensor, batch: int = 1000) -> float:
    model.eval()
    correct = 0
    for i in range(0, len(x), batch):
        correct += int((model(x[i:i + batch]).argmax(1) == y[i:i + batch]).sum())
    return correct / len(x)


def make_optimizer(model: nn.Module, name: str, lr: float, weight_decay: float) -> torch.optim.Optimizer:
    decay, no_decay = [], []
    for pname, p in model.named_parameters():
        (no_decay if p.ndim <= 1 or pname.endswith("pos") else decay).append(p)
    groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    if name == "sgd":
        return torch.optim.SGD(groups, lr=lr, momentum=0.9, nesterov=True)
    return torch.optim.AdamW(groups, lr=lr)


def train_classifier(spec: ZooSpec, epochs: int, seed: int = 0, show_progress: bool = True,
                     log=print, budget: Budget | None = None) -> TrainResult:
    """Train for ``epochs`` (OneCycleLR), or until ``budget`` is used (schedule by budget fraction)."""
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    train_images, train_labels = fashion_mnist("train")
    test_images, test_labels = fashion_mnist("test")
    x_train, x_test = network_inputs(spec, train_images), network_inputs(spec, test_images)
    y_train, y_test = torch.from_numpy(train_labels), torch.from_numpy(test_labels)

    model = spec.build()
    recipe = spec.recipe
    optimizer = make_optimizer(model, recipe.optimizer, recipe.lr, recipe.weight_decay)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=recipe.label_smoothing)

    if recipe.augment and spec.preset is not None:
        raise InputError(f"zoo model {spec.name}: augmentation acts on 28×28 tensors; its recipe must set "
                         f"augment=False (inputs come from the preset {spec.preset})")

    def batch_loss(idx: torch.Tensor) -> torch.Tensor:
        xb = augment(x_train[idx], generator) if recipe.augment else x_train[idx]
        return loss_fn(model(xb), y_train[idx])

    def probe() -> dict:
        # Monitoring only (never used to pick a checkpoint): accuracy on the first 2,000 test images.
        return {"probe_accuracy": evaluate(model, x_test[:2000], y_test[:2000])}

    run = train_loop(spec.name, model, optimizer, recipe.lr, recipe.batch, len(x_train), batch_loss, generator,
                     epochs, budget, pct_start=0.25, show_progress=show_progress, log=log, epoch_extras=probe)
    accuracy = evaluate(model, x_test, y_test)
    log(f"{spec.name}: test accuracy {accuracy:.4f} on {len(x_test)} images, {run.seconds:.1f} s training")
    return TrainResult(model.eval(), run.seconds, run.cpu_seconds, accuracy, len(x_test), run.epochs_done,
                       run.history)
