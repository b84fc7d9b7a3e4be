"""``load(name)``: a committed zoo model with its weights, in eval mode."""
from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from npuready.errors import InputError
from npuready.models.zoo import spec as zoo_spec
from npuready.paths import zoo_dir


def checkpoint_path(name: str, folder: str | Path | None = None) -> Path:
    zoo_spec(name)  # unknown names are refused here
    return Path(folder or zoo_dir()) / f"{name}.pt"


def onnx_path(name: str, folder: str | Path | None = None) -> Path:
    zoo_spec(name)
    return Path(folder or zoo_dir()) / f"{name}.onnx"


def load(name: str, folder: str | Path | None = None) -> nn.Module:
    """Build zoo model ``name`` and load its committed state_dict (``weights_only=True``)."""
    spec = zoo_spec(name)
    path = checkpoint_path(name, folder)
    if not path.is_file():
        raise InputError(f"zoo checkpoint {path}: missing; restore zoo/ from git or run "
                         f"`npuready train --arch {name}`")
    model = spec.build()
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
        model.load_state_dict(state)
    except (RuntimeError, KeyError, EOFError) as exc:
        raise InputError(f"zoo checkpoint {path}: does not fit {name} ({str(exc).splitlines()[0]}); "
                         f"retrain with `npuready train --arch {name}`") from exc
    return model.eval()
