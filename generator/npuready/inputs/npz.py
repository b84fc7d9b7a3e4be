"""``.npz`` archives: every member's declared size and .npy header checked before any is decoded."""
from __future__ import annotations

import os
import zipfile

import numpy as np

from npuready.errors import InputError
from npuready.inputs import budget
from npuready.inputs.files import regular_file
from npuready.inputs.npy import check_header, check_values, header


def read_npz(path: "str | os.PathLike", required: tuple[str, ...] = (), optional: tuple[str, ...] = (),
             label: str | None = None, *, finite: tuple[str, ...] = (),
             budget_bytes: int = budget.MAX_ARRAY_BYTES) -> dict[str, np.ndarray]:
    """The ``required`` and present ``optional`` arrays of an .npz; other members are ignored unread."""
    label = label or str(path)
    p = regular_file(path, label, what=".npz file")
    if not zipfile.is_zipfile(p):
        raise InputError(f"{label}: not an .npz archive (not a zip file)")
    out: dict[str, np.ndarray] = {}
    try:
        with zipfile.ZipFile(p) as zf:
            members = {info.filename[:-4] if info.filename.endswith(".npy") else info.filename: info
                       for info in zf.infolist()}
            for key in required:
                if key not in members:
                    raise InputError(f"{label}: needs an array '{key}' (has {sorted(members) or 'none'})")
            total = 0
            for key in (*required, *(k for k in optional if k in members)):
                info = members[key]
                where = f"{label}: '{key}'"
                if info.file_size > budget_bytes or (
                        info.file_size > (1 << 20)
                        and info.file_size > budget.MAX_ZIP_RATIO * max(info.compress_size, 1)):
                    raise InputError(f"{where} unpacks to {info.file_size:,} bytes from {info.compress_size:,} "
                                     f"(budget {budget_bytes:,} bytes, ratio ≤ {budget.MAX_ZIP_RATIO}); "
                                     "refusing to unpack")
                total += info.file_size
                if total > budget_bytes:
                    raise InputError(f"{label}: members unpack to more than the {budget_bytes:,}-byte budget")
                with zf.open(info) as f:
                    shape, dtype = header(f, where)
                    check_header(shape, dtype, where, budget_bytes=budget_bytes)
                with zf.open(info) as f:
                    try:
                        x = np.lib.format.read_array(f, allow_pickle=False)
                    except (ValueError, EOFError, OSError) as exc:
                        raise InputError(f"{where}: not a readable array "
                                         f"({' '.join(str(exc).split())[:160]})") from None
                out[key] = check_values(x, where, finite=key in finite)
    except zipfile.BadZipFile as exc:
        raise InputError(f"{label}: corrupt .npz archive ({exc})") from None
    return out
