"""tools/record_walkthrough.py refuses to record a page that logs a console error."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from npuready.site.browser import chromium_path

TOOL = Path(__file__).resolve().parents[2] / "tools" / "record_walkthrough.py"


def _tool():
    spec = importlib.util.spec_from_file_location("record_walkthrough", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_console_error_aborts_the_recording(tmp_path):
    if chromium_path() is None:
        pytest.skip("no system Chromium at /usr/bin/chromium: run 'python tools/ensure_browser.py'")
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(
        "<!doctype html><html><body><section class='view' id='view-findings'>findings</section>"
        "<script>console.error('boom from the page'); document.documentElement.dataset.ready = '1';</script>"
        "</body></html>", encoding="utf-8")
    # a subprocess: the browser tests already hold a sync Playwright session in this process
    run = subprocess.run([sys.executable, str(TOOL), "--site", str(site), "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert run.stderr.strip() == "walkthrough aborted:\n  console.error: boom from the page"
    assert not (tmp_path / "out" / "walkthrough.gif").exists()


def test_scenes_cover_every_view_in_story_order():
    names = [name for name, _caption, _act in _tool().SCENES]
    assert names == ["findings", "raw-json", "models", "npu", "integer", "records", "deep-link", "docs"]
