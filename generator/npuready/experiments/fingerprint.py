"""Code fingerprint of a module: the SHA-256 of every npuready source file it imports, transitively.

The imports are read from the source (``ast``), not by importing: every ``import npuready.x`` and
``from npuready.x import y`` anywhere in the file (runners import lazily inside functions) counts, with
the packages' ``__init__.py`` files on the way and ``y`` itself when it is a submodule. Relative
imports resolve against the importing module. Modules outside npuready count only as their own file
(a test runner, say); third-party packages are not followed (their versions are provenance).

The same walk runs over any source tree: the package on disk (``module_files``, ``file_hashes``) or the
package as an earlier commit stored it (``tree_files`` with a reader of that commit's files). Files are
named by their path in the repository (``generator/npuready/...``), so the two can be compared.

The task cache (``npuready run --resume``) keys finished tasks by it; each result records the per-file
hashes (``provenance.code``) and ``npuready run --check`` compares them with the files now.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
from functools import lru_cache
from pathlib import Path
from typing import Callable

PACKAGE = "npuready"
PACKAGE_PREFIX = f"generator/{PACKAGE}"  # where the package's files sit in the repository


ROOT = Path(__file__).resolve().parents[1]  # the npuready package folder


def package_candidates(name: str) -> tuple[str, str]:
    """Paths (under the package folder) a npuready module may live at: ``x/__init__.py``, ``x.py``."""
    base = "/".join(name.split(".")[1:])
    return (f"{base}/__init__.py".lstrip("/"), f"{base}.py") if base else ("__init__.py", "__init__.py")


def _module_file(name: str) -> Path | None:
    """Source file of a module; npuready modules are found by path without importing anything."""
    if name == PACKAGE or name.startswith(PACKAGE + "."):
        for rel in package_candidates(name):
            if (ROOT / rel).is_file():
                return ROOT / rel
        return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


@lru_cache(maxsize=4096)
def imported_names(text: str, module: str, is_package: bool) -> tuple[str, ...]:
    """Dotted npuready module names a source ``text`` (module ``module``) may import."""
    tree = ast.parse(text, filename=module)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return tuple(sorted(n for n in names if n == PACKAGE or n.startswith(PACKAGE + ".")))


def walk(module: str, locate: Callable[[str], str | None], read: Callable[[str], str]) -> dict[str, str]:
    """Module name → file key for ``module`` and every npuready module it reaches by imports.
    ``locate(name)`` gives a module's file key (None: not a module), ``read(key)`` its source text."""
    seen: dict[str, str] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        for part in _with_parents(name) if name.startswith(PACKAGE) else [name]:
            if part in seen:
                continue
            key = locate(part)
            if key is None:  # an attribute imported with `from pkg import attr`, or not a source module
                continue
            seen[part] = key
            todo.extend(imported_names(read(key), part, key.endswith("__init__.py")))
    return dict(sorted(seen.items()))


def module_files(module: str) -> dict[str, Path]:
    """Module name → source file on disk for ``module`` and every npuready module it reaches by imports."""
    def locate(name: str) -> str | None:
        path = _module_file(name)
        return None if path is None else str(path)

    return {name: Path(key) for name, key in walk(module, locate, lambda key: Path(key).read_text("utf-8")).items()}


def tree_files(module: str, files: set[str], read: Callable[[str], str]) -> dict[str, str]:
    """Module name → repository path of the npuready modules ``module`` reaches in another tree of the
    package: ``files`` are the repository paths present there, ``read(path)`` gives one's text."""
    def locate(name: str) -> str | None:
        if not (name == PACKAGE or name.startswith(PACKAGE + ".")):
            return None
        return next((p for p in (f"{PACKAGE_PREFIX}/{r}" for r in package_candidates(name)) if p in files), None)

    return walk(module, locate, read)


def repo_path(path: Path) -> str:
    """How a source file is named in provenance: ``generator/npuready/...`` for package files, else its path."""
    try:
        return f"{PACKAGE_PREFIX}/{path.resolve().relative_to(ROOT).as_posix()}"
    except ValueError:
        return str(path)


def file_hashes(module: str) -> dict[str, str]:
    """Repository path → SHA-256 of every source file of ``module_files(module)``, sorted by path."""
    return dict(sorted((repo_path(p), hashlib.sha256(p.read_bytes()).hexdigest())
                       for p in module_files(module).values()))


def code_fingerprint(module: str) -> str:
    """SHA-256 over (module name, file SHA-256) of ``module_files(module)``, sorted by name."""
    digest = hashlib.sha256()
    for name, path in module_files(module).items():
        digest.update(name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()
