"""Train a zoo classifier on the full Fashion-MNIST training set (60k) and score it on the test set (10k).

Whole-tensor pipeline (no DataLoader): the data sit in memory as one float tensor, each batch gets
a random ±2-pixel shift (zero padding) and a random horizontal flip. One-cycle schedule over a fixed
number of epochs, or over a time budget (``npuready.models.budget``); SGD with Nesterov momentum or
AdamW as the zoo recipe says. Wall and CPU time of the optimisation loop are measured.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from npuready.data.debian_fashion_mnist import fashion_mnist
from npuready.models.budget import Budget, one_cycle_factor
from npuready.models.progress import progress_bar
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
    mean, std = spec.mean[0], spec.std[0]
    train_images, train_labels = fashion_mnist("train")
    test_images, test_labels = fashion_mnist("test")
    x_train, y_train = normalise(train_images, mean, std), torch.from_numpy(train_labels)
    x_test, y_test = normalise(test_images, mean, std), torch.from_numpy(test_labels)

    model = spec.build()
    recipe = spec.recipe
    optimizer = make_optimizer(model, recipe.optimizer, recipe.lr, recipe.weight_decay)
    steps_per_epoch = len(x_train) // recipe.batch
    scheduler = None
    if budget is None:
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=recipe.lr, epochs=epochs,
                                                        steps_per_epoch=steps_per_epoch, pct_start=0.25)
    else:
        budget.start()
    loss_fn = nn.CrossEntropyLoss(label_smoothing=recipe.label_smoothing)
    history, seconds, cpu_seconds, steps_done = [], 0.0, 0.0, 0
    epoch, finished = 0, False
    while not finished:
        model.train()
        start, cpu_start = time.perf_counter(), time.process_time()
        order = torch.randperm(len(x_train), generator=generator)
        total, steps = 0.0, 0
        label = f"{spec.name} epoch {epoch + 1}" + ("" if budget else f"/{epochs}")
        for step in progress_bar(range(steps_per_epoch), label, show_progress):
            if budget is not None:
                p = budget.fraction()
                if p >= 1.0:
                    break
                for group in optimizer.param_groups:
                    group["lr"] = recipe.lr * one_cycle_factor(p)
            idx = order[step * recipe.batch:(step + 1) * recipe.batch]
            xb = augment(x_train[idx], generator) if recipe.augment else x_train[idx]
            loss = loss_fn(model(xb), y_train[idx])
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            if scheduler is not None:
                scheduler.step()
            total += loss.item()
            steps += 1
        seconds += time.perf_counter() - start
        cpu_seconds += time.process_time() - cpu_start
        steps_done += steps
        epoch += 1
        finished = (budget is None and epoch >= epochs) or (budget is not None and steps < steps_per_epoch)
        # Monitoring only (never used to pick a checkpoint): accuracy on the first 2,000 test images.
        probe = evaluate(model, x_test[:2000], y_test[:2000])
        row = {"epoch": epoch, "steps": steps, "loss": round(total / max(steps, 1), 4), "probe_accuracy": probe,
               "seconds": round(seconds, 1), "cpu_seconds": round(cpu_seconds, 1)}
        if steps:  # a budget can run out exactly at an epoch boundary: no empty rows
            history.append(row)
        log(f"{spec.name}: {row}")
    accuracy = evaluate(model, x_test, y_test)
    log(f"{spec.name}: test accuracy {accuracy:.4f} on {len(x_test)} images, {seconds:.1f} s training")
    return TrainResult(model.eval(), seconds, cpu_seconds, accuracy, len(x_test),
                       round(steps_done / steps_per_epoch, 2), tuple(history))
