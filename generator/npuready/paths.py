"""Where the repository's committed artefacts live (experiments, docs, site, zoo, data).

The package is installed editable from ``generator/``; ``NPUREADY_REPO`` overrides the root.
"""
from __future__ import annotations

import os
from pathlib import Path


def repo_root() -> Path:
    env = os.environ.get("NPUREADY_REPO")
    if env:
        return Path(env).resolve()
    return Path(__file__).resolve().parents[2]


def experiments_dir() -> Path:
    return repo_root() / "experiments"


def docs_dir() -> Path:
    return repo_root() / "docs"


def site_dir() -> Path:
    return repo_root() / "site"


def zoo_dir() -> Path:
    return repo_root() / "zoo"


def data_dir() -> Path:
    return repo_root() / "data"
