"""Skip helper for tests that build library models: they need the corpus extra (torch, timm, ultralytics)."""
import importlib.util

import pytest

HAVE_CORPUS = all(importlib.util.find_spec(m) is not None for m in ("torch", "torchvision", "timm", "ultralytics"))
needs_corpus = pytest.mark.skipif(not HAVE_CORPUS, reason="corpus extra not installed: pip install 'npuready[corpus]'")
