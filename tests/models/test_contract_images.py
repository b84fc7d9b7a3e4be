import numpy as np
import torch

from npuready.models.contract_images import ContractImages
from npuready.preprocess.pipeline import apply
from npuready.preprocess.presets import preset


def test_batches_are_the_preset_applied_to_each_raw_image():
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (5, 28, 28), dtype=np.uint8)
    spec = preset("fashion_mnist_64_rgb")
    data = ContractImages(images, spec)
    assert len(data) == 5
    batch = data[torch.tensor([3, 0])]
    assert batch.dtype == torch.float32 and batch.shape == (2, 3, 64, 64)
    np.testing.assert_array_equal(batch.numpy(), np.concatenate([apply(spec, images[3]), apply(spec, images[0])]))
    np.testing.assert_array_equal(data[1:3].numpy(), np.concatenate([apply(spec, images[i]) for i in (1, 2)]))
