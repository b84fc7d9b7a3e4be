"""Code fingerprint of a module: the SHA-256 of every npuready source file it imports, transitively.

The imports are read from the source (``ast``), not by importing: every ``import npuready.x`` and
``from npuready.x import y`` anywhere in the file (runners import lazily inside functions) counts, with
the packages' ``__init__.py`` files on the way and ``y`` itself when it is a submodule. Relative
imports resolve against the importing module. Modules outside npuready count only as their own file
(a test runner, say); third-party packages are not followed (their versions are provenance).

The task cache (``npuready run --resume``) keys finished tasks by it; a freshness check can reuse it.
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
from functools import lru_cache
from pathlib import Path

PACKAGE = "npuready"


ROOT = Path(__file__).resolve().parents[1]  # the npuready package folder


def _module_file(name: str) -> Path | None:
    """Source file of a module; npuready modules are found by path without importing anything."""
    if name == PACKAGE or name.startswith(PACKAGE + "."):
        base = ROOT.joinpath(*name.split(".")[1:])
        for path in (base / "__init__.py", base.with_suffix(".py")):
            if path.is_file():
                return path
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


@lru_cache(maxsize=None)
def _imported_names(path: Path, module: str) -> tuple[str, ...]:
    """Dotted npuready module names the file at ``path`` (module ``module``) may import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
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


def module_files(module: str) -> dict[str, Path]:
    """Module name → source file for ``module`` and every npuready module it reaches by imports."""
    seen: dict[str, Path] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        for part in _with_parents(name) if name.startswith(PACKAGE) else [name]:
            if part in seen:
                continue
            path = _module_file(part)
            if path is None:  # an attribute imported with `from pkg import attr`, or not a source module
                continue
            seen[part] = path
            todo.extend(_imported_names(path, part))
    return dict(sorted(seen.items()))


def code_fingerprint(module: str) -> str:
    """SHA-256 over (module name, file SHA-256) of ``module_files(module)``, sorted by name."""
    digest = hashlib.sha256()
    for name, path in module_files(module).items():
        digest.update(name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()
