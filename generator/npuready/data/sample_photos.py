"""Real RGB photos shipped inside the scikit-image and scikit-learn wheels (no download).

Used for colour-order / layout / resize checks and as detection-set backgrounds. Every photo is
returned as uint8 H×W×3 in RGB order.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from npuready.errors import InputError


def _skimage(name: str) -> Callable[[], np.ndarray]:
    def load() -> np.ndarray:
        import skimage.data

        return getattr(skimage.data, name)()
    return load


def _sklearn(filename: str) -> Callable[[], np.ndarray]:
    def load() -> np.ndarray:
        from sklearn.datasets import load_sample_image

        return load_sample_image(filename)
    return load


#: name -> (loader, source). All ship inside the wheels; none needs the network.
PHOTOS: dict[str, tuple[Callable[[], np.ndarray], str]] = {
    "astronaut": (_skimage("astronaut"), "scikit-image skimage.data.astronaut (NASA, public domain)"),
    "chelsea": (_skimage("chelsea"), "scikit-image skimage.data.chelsea (Stefan van der Walt, CC0)"),
    "coffee": (_skimage("coffee"), "scikit-image skimage.data.coffee (Rachel Michetti, CC0)"),
    "rocket": (_skimage("rocket"), "scikit-image skimage.data.rocket (SpaceX, CC0)"),
    "immunohistochemistry": (_skimage("immunohistochemistry"),
                             "scikit-image skimage.data.immunohistochemistry (public domain)"),
    "hubble_deep_field": (_skimage("hubble_deep_field"), "scikit-image skimage.data.hubble_deep_field (NASA)"),
    "china": (_sklearn("china.jpg"), "scikit-learn load_sample_image('china.jpg')"),
    "flower": (_sklearn("flower.jpg"), "scikit-learn load_sample_image('flower.jpg')"),
}


def photo(name: str) -> np.ndarray:
    """Photo ``name`` as uint8 H×W×3 RGB."""
    if name not in PHOTOS:
        raise InputError(f"photo {name!r}: unknown; choose one of {', '.join(PHOTOS)}")
    try:
        image = np.asarray(PHOTOS[name][0]())
    except ImportError as exc:
        raise InputError(f"photo {name!r}: needs {exc.name}; install the data extra "
                         "(pip install 'npuready[data]')") from exc
    if image.ndim != 3 or image.shape[2] < 3:
        raise InputError(f"photo {name!r}: shape {image.shape} is not H×W×3")
    return np.ascontiguousarray(image[:, :, :3]).astype(np.uint8)


def photos() -> dict[str, np.ndarray]:
    return {name: photo(name) for name in PHOTOS}
