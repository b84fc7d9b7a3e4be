"""Raw images seen through a preprocessing contract: tensors are made per batch by ``pipeline.apply``.

Training a ``*_fm64`` zoo model keeps the uint8 28×28 Fashion-MNIST images in memory and turns each
batch into network input with the very function calibration (``npuready quantize``) and evaluation
(``npuready verify``) call, so the three cannot drift. Indexing (a slice, an index array or tensor)
returns a float32 ``torch.Tensor`` N×C×H×W, like the in-memory tensors of the 28×28 zoo models.
"""
from __future__ import annotations

import numpy as np
import torch

from npuready.preprocess.pipeline import apply
from npuready.preprocess.spec import PreprocessSpec


class ContractImages:
    def __init__(self, images: np.ndarray, spec: PreprocessSpec):
        self.images = images
        self.spec = spec

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, key) -> torch.Tensor:
        if isinstance(key, torch.Tensor):
            key = key.numpy()
        idx = np.arange(len(self.images))[key]
        return torch.from_numpy(np.concatenate([apply(self.spec, self.images[int(i)]) for i in idx]))
