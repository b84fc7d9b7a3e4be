"""Every experiment test writes its task cache under its own temporary folder, never ~/.cache."""
import pytest


@pytest.fixture(autouse=True)
def _task_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NPUREADY_CACHE", str(tmp_path / "task-cache"))
