import numpy as np
import torch

from npuready.models.train_classifier import augment, normalise
from npuready.models.zoo import FASHION_MEAN, FASHION_STD


def test_normalise_is_the_zoo_contract():
    images = np.array([[[0, 255]]], np.uint8)
    x = normalise(images, FASHION_MEAN, FASHION_STD)
    assert x.shape == (1, 1, 1, 2)
    np.testing.assert_allclose(x.numpy().ravel(), [(0 - FASHION_MEAN) / FASHION_STD, (1 - FASHION_MEAN) / FASHION_STD],
                               rtol=1e-6)


def test_augment_is_a_shift_or_a_mirrored_shift_of_each_image():
    g = torch.Generator().manual_seed(0)
    x = torch.arange(2 * 1 * 6 * 6, dtype=torch.float32).reshape(2, 1, 6, 6) + 1
    out = augment(x, g, shift=1)
    padded = torch.nn.functional.pad(x, (1, 1, 1, 1), value=float(x.amin()))
    for i in range(2):
        crops = [padded[i, 0, dy:dy + 6, dx:dx + 6] for dy in range(3) for dx in range(3)]
        assert any(torch.equal(out[i, 0], c) or torch.equal(out[i, 0], c.flip(-1)) for c in crops)
