"""A spec's ``[params]`` checked before anything runs: experiment ids (never paths), each runner's JSON
Schema, and repository files named in params (relative to the repository, inside it, regular, within budget).

A runner module may declare ``PARAMS_SCHEMA`` (a JSON Schema for its ``[params]`` table) and
``PARAM_PATHS`` (params key → ``"file"`` or ``"file-or-folder"``: the keys that name repository paths, a
``library:NAME``/``fashion-mnist:train`` style value excepted).
``npuready run`` checks every named experiment this way before the first one starts, so a wrong type is
exit 2 and one line, not "all 1 task(s) failed: ValueError" after the work.
"""
from __future__ import annotations

import importlib
import os
import re
from pathlib import Path
from typing import Any, Mapping

from npuready.errors import InputError

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # the result schema's id pattern


def check_id(exp_id: str) -> str:
    """``exp_id`` when it is an experiment id; a path (absolute, ``../``, any separator) is refused."""
    if not isinstance(exp_id, str) or not ID_PATTERN.match(exp_id):
        raise InputError(f"'{exp_id}': not an experiment id (lower-case letters, digits and '-'); npuready run "
                         "takes ids of experiments/<id>/spec.toml, not paths — see npuready run --list")
    return exp_id


def repo_file(value: Any, key: str, label: str, repo: Path, max_bytes: int, folder_ok: bool = False) -> Path:
    """A params path: relative to the repository, inside it once symlinks are resolved, a regular file no
    larger than ``max_bytes`` (or, with ``folder_ok``, a folder) — checked before anything opens or hashes it."""
    from npuready.inputs.files import regular_file

    where = f"{label}: [params] {key}"
    if not isinstance(value, str) or not value or "\x00" in value:
        raise InputError(f"{where}: expected a repository-relative path, got {value!r:.60}")
    if os.path.isabs(value) or value.startswith(("/", "\\")) or value[1:2] == ":":
        raise InputError(f"{where}: {value!r} is absolute; give a path relative to the repository")
    if ".." in Path(value.replace("\\", "/")).parts:
        raise InputError(f"{where}: {value!r} climbs out with '..'; give a path inside the repository")
    resolved = (repo / value).resolve()
    if folder_ok and resolved.is_dir():
        if not resolved.is_relative_to(repo.resolve()):
            raise InputError(f"{where}: resolves to {resolved}, outside {repo.resolve()}; refusing to read it")
        return resolved
    path = regular_file(repo / value, where, inside=repo, what="file")
    size = path.stat().st_size
    if size > max_bytes:
        raise InputError(f"{where}: {value} is {size:,} bytes, above the {max_bytes:,}-byte budget")
    return path


def check_params(exp_id: str, params: Mapping[str, Any], runner: str | None, repo: Path, label: str) -> None:
    """Validate ``params`` against the runner's ``PARAMS_SCHEMA`` and its ``PARAM_PATHS`` (InputError)."""
    if runner is None:
        return
    module = importlib.import_module(runner)
    schema = getattr(module, "PARAMS_SCHEMA", None)
    if schema is not None:
        from npuready.inputs.schema_errors import first_error

        if problem := first_error(schema, dict(params)):
            raise InputError(f"{label}: [params] {problem}")
    from npuready.inputs import budget

    for key, kind in getattr(module, "PARAM_PATHS", {}).items():
        value = params.get(key)
        if value is None or (isinstance(value, str) and re.match(r"^[a-z][a-z0-9-]*:", value)):
            continue  # absent, or library:NAME / fashion-mnist:train (not a file)
        repo_file(value, key, label, repo, budget.MAX_MODEL_BYTES, folder_ok=kind == "file-or-folder")
