"""Netron as the reference for the graph-view benchmarks: Netron's own web UI served by its PyPI package on
loopback and drawn in the same headless Chromium, in the same run as npuready's page.

Netron is not a core dependency. It is looked up as ``import netron`` in this environment (the ``bench`` extra:
``pip install -e .[bench]``; Netron has no dependencies of its own) or, set ``NPUREADY_NETRON_PYTHON`` to the
python of a throwaway venv that has it (``python3 -m venv /tmp/netron-venv && /tmp/netron-venv/bin/pip install
netron==9.3.3``). Without either, the benchmarks
report npuready's figures alone and say so. Netron calls out to the internet (analytics, ipinfo): every request
that is not to its loopback server is aborted. Netron replaces ``window.eval``, which Playwright's evaluate needs:
an init script keeps the browser's own (nothing else in Netron changes), and its consent screen is accepted.
"""
from __future__ import annotations

import importlib.util
import os
import re
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

KEEP_EVAL = ("(() => { const e = window.eval; Object.defineProperty(window, 'eval', "
             "{get: () => e, set: () => {}, configurable: true}); })()")


def netron_python() -> str | None:
    configured = os.environ.get("NPUREADY_NETRON_PYTHON")
    if configured:
        return configured if Path(configured).is_file() else None
    return sys.executable if importlib.util.find_spec("netron") is not None else None


def netron_version(python: str) -> str:
    run = subprocess.run([python, "-c", "import netron; print(netron.__version__)"], capture_output=True, text=True)
    return run.stdout.strip() or "unknown"


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@contextmanager
def serving(python: str, model: Path) -> Iterator[str]:
    """Netron serving ``model`` on a loopback port; yields its URL."""
    port = _free_port()
    code = f"import netron; netron.serve({str(model)!r}, address=('127.0.0.1', {port}), browse=False); netron.wait()"
    proc = subprocess.Popen([python, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def open_netron(browser: Any, url: str, viewport: dict, timeout_s: float = 600) -> tuple[Any, Any, float]:
    """A page showing ``url``'s model drawn; returns (context, page, seconds to the first drawn node from the
    navigation, not counting the wait for the consent click)."""
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    context.add_init_script(KEEP_EVAL)
    context.route(re.compile(r"^(?!" + re.escape(url) + ")"), lambda route: route.abort())
    page = context.new_page()
    t0 = time.monotonic()
    page.goto(url)
    consent = page.get_by_text("Accept", exact=True)
    consent.wait_for(timeout=60000)
    before = time.monotonic() - t0
    consent.click()
    t1 = time.monotonic()
    while page.evaluate("() => document.querySelectorAll('#canvas g.node').length") == 0:
        if time.monotonic() - t1 > timeout_s:
            raise TimeoutError(f"Netron drew no node within {timeout_s} s")
        time.sleep(0.05)
    return context, page, before + time.monotonic() - t1
