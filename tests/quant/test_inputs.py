"""Input sources for calibration and evaluation."""
import numpy as np
import pytest

from npuready.errors import InputError
from npuready.quant.inputs import load_inputs


def test_npz_with_labels(tmp_path):
    x = np.zeros((5, 1, 28, 28), np.float32)
    np.savez(tmp_path / "d.npz", x=x, y=np.arange(5))
    d = load_inputs(str(tmp_path / "d.npz"), 3)
    assert d.x.shape == (3, 1, 28, 28) and d.labels.tolist() == [0, 1, 2]


def test_missing_source_is_input_error(tmp_path):
    with pytest.raises(InputError, match="not found"):
        load_inputs(str(tmp_path / "nope.npz"))
    np.savez(tmp_path / "bad.npz", z=np.zeros(3))
    with pytest.raises(InputError, match="needs an array 'x'"):
        load_inputs(str(tmp_path / "bad.npz"))


def test_fashion_mnist_at_64x64_rgb_goes_through_the_library_models_preset():
    from npuready.data.subset import fashion_mnist_subset
    from npuready.preprocess.calibration import stratified_indices
    from npuready.preprocess.pipeline import apply
    from npuready.preprocess.presets import preset

    data = load_inputs("fashion-mnist:train", 6, (1, 3, 64, 64))
    images, labels = fashion_mnist_subset("train")
    idx = stratified_indices(labels, 6, 0)
    spec = preset("fashion_mnist_64_rgb")
    np.testing.assert_array_equal(data.x, np.concatenate([apply(spec, images[int(i)]) for i in idx]))
    np.testing.assert_array_equal(data.labels, labels[idx])
