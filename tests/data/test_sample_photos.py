import numpy as np
import pytest

from npuready.data import sample_photos as photos
from npuready.errors import InputError


@pytest.mark.parametrize("name", list(photos.PHOTOS))
def test_every_photo_loads_as_uint8_rgb(name):
    image = photos.photo(name)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert min(image.shape[:2]) >= 96  # large enough for a detection-set crop


def test_photos_are_colour_not_grey():
    image = photos.photo("astronaut").astype(np.int16)
    assert np.abs(image[:, :, 0] - image[:, :, 2]).mean() > 10  # R and B differ: a real colour photo


def test_unknown_photo():
    with pytest.raises(InputError, match="photo 'lena': unknown"):
        photos.photo("lena")
