"""The vendored chart runtime (committed under ``site/vendor/`` by ``tools/vendor_js.sh``).

Vega-Lite's version matches the one Altair targets (``altair.VEGALITE_VERSION``); a test checks it.
"""
from __future__ import annotations

from pathlib import Path

VERSIONS = {"vega": "6.4.0", "vega-lite": "6.4.1", "vega-embed": "7.3.0"}
VENDOR_FILES = tuple(f"vendor/{name}@{version}.min.js" for name, version in VERSIONS.items())


def missing_vendor_files(site: Path) -> list[str]:
    return [str(site / rel) for rel in VENDOR_FILES if not (site / rel).is_file()]
