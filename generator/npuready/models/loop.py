"""The training loop every zoo trainer shares: epochs of shuffled batches under either a OneCycle
schedule over ``epochs`` or a time ``Budget`` (learning rate by budget fraction), with wall/CPU time
and one history row per epoch. The trainer supplies the per-batch loss, an optional per-epoch start
hook (e.g. fresh data; its time counts as training time) and any per-epoch extras.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import torch
from torch import nn

from npuready.models.budget import Budget, one_cycle_factor
from npuready.models.progress import progress_bar


@dataclass(frozen=True)
class LoopResult:
    seconds: float
    cpu_seconds: float
    epochs_done: float
    history: tuple[dict, ...]


def train_loop(name: str, model: nn.Module, optimizer: torch.optim.Optimizer, lr: float, batch: int, items: int,
               batch_loss: Callable[[torch.Tensor], torch.Tensor], generator: torch.Generator, epochs: int,
               budget: Budget | None, pct_start: float, show_progress: bool = True, log=print,
               epoch_extras: Callable[[], dict] = dict,
               epoch_start: Callable[[int], None] = lambda epoch: None) -> LoopResult:
    """Run the loop; ``batch_loss(indices)`` returns the loss of one batch of item indices."""
    steps_per_epoch = items // batch
    scheduler = None
    if budget is None:
        scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, epochs=epochs,
                                                        steps_per_epoch=steps_per_epoch, pct_start=pct_start)
    else:
        budget.start()
    history, seconds, cpu_seconds, steps_done = [], 0.0, 0.0, 0
    epoch, finished = 0, False
    while not finished:
        model.train()
        start, cpu_start = time.perf_counter(), time.process_time()
        epoch_start(epoch)
        order = torch.randperm(items, generator=generator)
        total, steps = 0.0, 0
        label = f"{name} epoch {epoch + 1}" + ("" if budget else f"/{epochs}")
        for step in progress_bar(range(steps_per_epoch), label, show_progress):
            if budget is not None:
                p = budget.fraction()
                if p >= 1.0:
                    break
                for group in optimizer.param_groups:
                    group["lr"] = lr * one_cycle_factor(p)
            loss = batch_loss(order[step * batch:(step + 1) * batch])
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
        row = {"epoch": epoch, "steps": steps, "loss": round(total / max(steps, 1), 4), **epoch_extras(),
               "seconds": round(seconds, 1), "cpu_seconds": round(cpu_seconds, 1)}
        if steps:  # a budget can run out exactly at an epoch boundary: no empty rows
            history.append(row)
        log(f"{name}: {row}")
    return LoopResult(seconds, cpu_seconds, round(steps_done / steps_per_epoch, 2), tuple(history))
