import json

import pytest

from npuready.paths import zoo_dir


@pytest.fixture(scope="session")
def manifest():
    return json.loads((zoo_dir() / "zoo.json").read_text())
