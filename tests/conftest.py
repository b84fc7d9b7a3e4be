"""Suite-wide settings. Tests run with --import-mode=importlib (test files share basenames across
folders); helper modules beside the tests (e.g. rule_models.py) are importable by bare name because
every test folder is put on sys.path here. Helper module names must stay unique across folders."""
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "2")

_TESTS = Path(__file__).resolve().parent
for _folder in sorted(p for p in _TESTS.rglob("*") if p.is_dir() and p.name != "__pycache__"):
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))
