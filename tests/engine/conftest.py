import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import models  # noqa: E402


@pytest.fixture(scope="session")
def qdq_models(tmp_path_factory):
    """{name: QDQ ModelProto} for the small test models (quantised once per session)."""
    out = {}
    for name in ("cnn", "elementwise", "attention", "attention_lite"):
        out[name] = models.quantize(getattr(models, name)(), tmp_path_factory.mktemp(name))
    return out
