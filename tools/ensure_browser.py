#!/usr/bin/env python3
"""Make sure the headless browser for the site tests and walkthrough is present.

Playwright cannot download its own browsers here, so the site uses Debian's Chromium
(/usr/bin/chromium) and, for the walkthrough video, Debian's ffmpeg. As root with apt-get this
installs them; otherwise it prints the command to run. Exit 0 when both are usable, 1 otherwise.
Usage: python tools/ensure_browser.py [--check]   (--check: never install, just report)
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

PACKAGES = {"chromium": "/usr/bin/chromium", "ffmpeg": "/usr/bin/ffmpeg"}


def missing() -> list[str]:
    return [pkg for pkg, path in PACKAGES.items() if not (os.path.isfile(path) or shutil.which(pkg))]


def main(argv: list[str]) -> int:
    need = missing()
    if need and "--check" not in argv and os.geteuid() == 0 and shutil.which("apt-get"):
        print(f"installing {' '.join(need)} with apt-get", file=sys.stderr)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", *need], check=True, env=env)
        need = missing()
    if need:
        print(f"missing: {' '.join(need)}; run: sudo apt-get install -y {' '.join(need)} "
              f"(browser tests skip without it; 'playwright install' cannot download here)", file=sys.stderr)
        return 1
    version = subprocess.run([PACKAGES["chromium"], "--version"], capture_output=True, text=True).stdout.strip()
    print(f"browser ok: {PACKAGES['chromium']} ({version or 'version unknown'}); ffmpeg ok: {shutil.which('ffmpeg')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
