"""Short recovery training after surgery (pruning or activation swap) on Fashion-MNIST."""
from __future__ import annotations

import torch
from torch import nn

from npuready.models.progress import progress_bar
from npuready.models.train_classifier import augment, evaluate, make_optimizer, normalise


def fashion_tensors(mean: float, std: float, test_images: int | None = None):
    from npuready.data import fashion_mnist

    xtr, ytr = fashion_mnist("train")
    xte, yte = fashion_mnist("test")
    if test_images:
        xte, yte = xte[:test_images], yte[:test_images]
    return (normalise(xtr, mean, std), torch.from_numpy(ytr), normalise(xte, mean, std), torch.from_numpy(yte))


def recover(model: nn.Module, x: torch.Tensor, y: torch.Tensor, steps: int, lr: float = 2e-3, batch: int = 128,
            seed: int = 0, show_progress: bool = False) -> nn.Module:
    """Fine-tune ``model`` for ``steps`` AdamW steps with a cosine schedule; returns it in eval mode."""
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    optimizer = make_optimizer(model, "adamw", lr, 1e-4)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=max(steps, 1))
    loss_fn = nn.CrossEntropyLoss()
    model.train()
    for _ in progress_bar(range(steps), "recovery", show_progress):
        idx = torch.randint(0, len(x), (batch,), generator=generator)
        loss = loss_fn(model(augment(x[idx], generator)), y[idx])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        schedule.step()
    return model.eval()


__all__ = ["evaluate", "fashion_tensors", "recover"]
