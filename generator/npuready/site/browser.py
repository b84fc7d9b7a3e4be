"""Headless Debian Chromium for the site's browser tests, walkthrough and benchmark.

``playwright install`` cannot download here, so Playwright drives the system Chromium
(``apt-get install chromium``; ``tools/ensure_browser.py`` checks it) with flags that keep it off the network.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-default-apps", "--disable-extensions",
                 "--mute-audio", "--hide-scrollbars"]


def chromium_path() -> str | None:
    """The system Chromium (``NPUREADY_CHROMIUM`` overrides), or None when absent."""
    env = os.environ.get("NPUREADY_CHROMIUM")
    if env:
        return env if Path(env).is_file() else None
    for candidate in CHROMIUM_CANDIDATES:
        if Path(candidate).is_file():
            return candidate
    found = shutil.which("chromium")
    return found


def launch(playwright: Any, **kwargs: Any) -> Any:
    """``playwright.chromium.launch`` on the system Chromium; raises FileNotFoundError when absent."""
    path = chromium_path()
    if path is None:
        raise FileNotFoundError("no system Chromium; run 'python tools/ensure_browser.py' (apt-get install chromium)")
    return playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, **kwargs)


def is_local(url: str) -> bool:
    """Requests the site may make: its own files, and in-page data:/blob: URLs (never the network)."""
    return url.startswith(("file://", "data:", "blob:"))
