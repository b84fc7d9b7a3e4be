import numpy as np
import pytest
from PIL import Image

from npuready.errors import InputError
from npuready.preprocess.sources import TEST_PHOTOS, dataset, image_folder


def test_image_folder_labels_are_first_subfolders(tmp_path):
    for rel in ("cat/a.png", "cat/b.jpg", "dog/x/c.png", "top.png", "notes.txt"):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith(".txt"):
            path.write_text("no image")
        else:
            Image.fromarray(np.zeros((4, 4, 3), np.uint8)).save(path)
    files, labels, _ = image_folder(tmp_path)
    assert [f.relative_to(tmp_path).as_posix() for f in files] == ["cat/a.png", "cat/b.jpg", "dog/x/c.png", "top.png"]
    assert labels == ["cat", "cat", "dog", ""]


def test_empty_or_missing_folder(tmp_path):
    with pytest.raises(InputError, match="no images"):
        image_folder(tmp_path)
    with pytest.raises(InputError, match="not a directory"):
        image_folder(tmp_path / "none")


def test_photo_dataset_and_unknown_dataset():
    images, labels, what = dataset("photos")
    assert labels == list(TEST_PHOTOS) and all(i.dtype == np.uint8 and i.shape[2] == 3 for i in images)
    with pytest.raises(InputError, match="dataset 'cifar': unknown"):
        dataset("cifar")
