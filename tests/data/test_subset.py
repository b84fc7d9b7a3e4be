import numpy as np
import pytest

from npuready.data import subset
from npuready.data.debian_fashion_mnist import DEFAULT_DIR, SHA256, fashion_mnist
from npuready.errors import InputError

INSTALLED = all((DEFAULT_DIR / name).is_file() for name in SHA256)


@pytest.mark.parametrize("split", ["train", "test"])
def test_committed_subset_is_stratified_exactly(split):
    images, labels = subset.fashion_mnist_subset(split)
    per_class = subset.PER_CLASS[split]
    assert images.shape == (10 * per_class, 28, 28) and images.dtype == np.uint8
    assert labels.dtype == np.int64
    assert np.bincount(labels, minlength=10).tolist() == [per_class] * 10


def test_stratified_indices_are_deterministic_and_exact():
    labels = np.repeat(np.arange(3), [5, 7, 9])
    a = subset.stratified_indices(labels, 4, seed=3)
    b = subset.stratified_indices(labels, 4, seed=3)
    assert a.tolist() == b.tolist()
    assert np.bincount(labels[a]).tolist() == [4, 4, 4]
    assert subset.stratified_indices(labels, 4, seed=4).tolist() != a.tolist()
    with pytest.raises(InputError, match="only 5 images, cannot take 6"):
        subset.stratified_indices(labels, 6, seed=0)


@pytest.mark.skipif(not INSTALLED, reason="Debian package dataset-fashion-mnist not installed")
@pytest.mark.parametrize("split", ["train", "test"])
def test_committed_subset_matches_a_rebuild_from_the_full_set(split):
    images, labels = subset.fashion_mnist_subset(split)
    idx = subset.fashion_mnist_subset_indices(split)
    full_images, full_labels = fashion_mnist(split)
    assert np.array_equal(full_images[idx], images) and np.array_equal(full_labels[idx], labels)
    expected = subset.stratified_indices(full_labels, subset.PER_CLASS[split], subset.SEED)
    assert idx.tolist() == expected.tolist()


def test_missing_subset_file(tmp_path, monkeypatch):
    monkeypatch.setenv(subset.ENV_VAR, str(tmp_path))
    with pytest.raises(InputError, match="fashion_mnist_subset.npz: missing"):
        subset.fashion_mnist_subset("test")


def test_unknown_subset_split():
    with pytest.raises(InputError, match="unknown"):
        subset.fashion_mnist_subset("val")
