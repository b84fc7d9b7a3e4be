import numpy as np
import onnx
import pytest

from npuready.preprocess.sources import TEST_PHOTOS


@pytest.fixture(scope="session")
def photos() -> dict[str, np.ndarray]:
    from npuready.data import photo

    return {name: photo(name) for name in TEST_PHOTOS}


@pytest.fixture(scope="session")
def model_file(tmp_path_factory):
    """Save a seeded conv classifier of the given input size; returns its path."""
    from npuready.preprocess.example_models import conv_classifier

    folder = tmp_path_factory.mktemp("models")

    def make(size: int = 224, channels: int = 3, first_pads: int = 1) -> str:
        path = folder / f"conv_{channels}x{size}_p{first_pads}.onnx"
        if not path.exists():
            onnx.save(conv_classifier(channels=channels, size=size, first_pads=first_pads), str(path))
        return str(path)

    return make
