"""Shared helpers for the site tests: build the fixture experiments into a temporary site."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fixture_tree(tmp_path: Path) -> dict[str, Path]:
    """A throwaway copy: fixture experiments + the real lint-corpus result, fixture docs, empty out dir."""
    exp = tmp_path / "experiments"
    shutil.copytree(FIXTURES / "experiments", exp)
    shutil.copytree(REPO / "experiments" / "lint-corpus", exp / "lint-corpus")
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "docs", docs)
    return {"experiments": exp, "docs": docs, "out": tmp_path / "site"}
