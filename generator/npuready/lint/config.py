"""Lint configuration: ``[tool.npuready.lint]`` in ``pyproject.toml`` or ``[lint]`` in ``npuready.toml``
(and in any other file named with ``--config``).

Found like ruff finds its configuration: from the model's folder upward (then from the working folder
upward); in one folder ``npuready.toml`` wins over ``pyproject.toml``, and a ``pyproject.toml`` counts only
when it has a ``[tool.npuready]`` table. Every key is validated; an unknown key, an unknown rule id or a
wrong type is an ``InputError`` naming the file and the key (exit 2). Paths and model globs in the file are
relative to the file's folder, the configuration root.
"""
from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from npuready.errors import InputError
from npuready.lint.rule import Severity
from npuready.lint.selection import selected_rules, unknown_selectors
from npuready.lint.waivers import Waiver

FAIL_ON = ("error", "warn", "never")

# Every key of the lint table, with what it does (docs/configuration.md is generated from this).
KEYS: dict[str, str] = {
    "target": "NPU target name used when the command line gives no `--target`",
    "select": "rule ids or id prefixes to run (default: every rule); `--select` replaces it",
    "ignore": "rule ids or id prefixes not to run; the longer prefix wins against `select`; `--ignore` replaces it",
    "fail-on": "which active findings fail the run (exit 1): `error` (default), `warn` (ERROR or WARN) or `never`",
    "baseline": ("baseline file (relative to this file, inside its folder or repository, a regular file) whose "
                 "recorded findings do not fail; `--baseline` replaces it"),
    "rules-url": "base URL of the rule pages for SARIF `helpUri` (`<rules-url><ID>.md`)",
    "severity": "table rule id → severity (" + ", ".join(s.value for s in Severity) + ") replacing the rule's own",
    "waive": "array of tables, one per waiver: `rule`, `node`, `reason` (required), `model`, `expires` (optional)",
}
WAIVER_KEYS: dict[str, str] = {
    "rule": "rule id or id prefix (required)",
    "node": "glob over the node path, e.g. `/encoder/ln_*` or `*` (required)",
    "reason": "why the finding is acceptable (required, non-empty)",
    "model": "glob over the model path relative to the configuration file (default `*`)",
    "expires": "date (`2027-06-30`); after it the waiver stops waiving and the finding says so",
}


@dataclass(frozen=True)
class LintConfig:
    """A resolved configuration. ``path`` is None when no file applies (defaults, rooted at ``root``)."""

    root: Path
    path: Path | None = None
    target: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    waivers: tuple[Waiver, ...] = ()
    fail_on: str = "error"
    baseline: Path | None = None
    rules_url: str | None = None

    def rule_ids(self, registry: Mapping[str, Any]) -> list[str]:
        return selected_rules(list(registry), self.select, self.ignore)

    def model_key(self, model: str | Path) -> str:
        """The model's path relative to the root (posix), the identity waivers and baselines use."""
        path = Path(model).resolve()
        try:
            return path.relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return Path(os.path.relpath(path, self.root.resolve())).as_posix()

    def overridden(self, **changes: Any) -> "LintConfig":
        """The command line wins over the file: only options actually given (not None) replace keys."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def git_root(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


def _tool_table(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise _problem(path, "tool", f"expected a table, got {type(tool).__name__} {tool!r}")
    return tool


def _has_tool_table(pyproject: Path) -> bool:
    return "npuready" in _tool_table(pyproject, _read_toml(pyproject))


def find_config(start: Path) -> Path | None:
    """The nearest ``npuready.toml``, or ``pyproject.toml`` with ``[tool.npuready]``, from ``start`` upward."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / "npuready.toml").is_file():
            return folder / "npuready.toml"
        if (folder / "pyproject.toml").is_file() and _has_tool_table(folder / "pyproject.toml"):
            return folder / "pyproject.toml"
    return None


def _read_toml(path: Path) -> dict[str, Any]:
    """The file as TOML: a regular file within budget.MAX_CONFIG_BYTES, UTF-8, nesting bounded."""
    from npuready.inputs.toml_file import read_toml

    return read_toml(path, str(path))


def load_config(path: str | Path) -> LintConfig:
    """Read and validate one configuration file."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: configuration file not found; give an existing npuready.toml or pyproject.toml")
    data = _read_toml(path)
    if path.name != "pyproject.toml":  # npuready.toml, or any other named file: the bare layout
        prefix, top = "", data
    else:
        tool = _tool_table(path, data)
        if "npuready" not in tool:
            raise InputError(f"{path}: no [tool.npuready] table; add [tool.npuready.lint] or name another file")
        prefix, top = "tool.npuready.", tool["npuready"]
    _expect(path, prefix.rstrip(".") or "(top level)", top, dict, "a table")
    _check_keys(path, prefix.rstrip(".") or "(top level)", top, {"lint": "lint settings"})
    table = top.get("lint", {})
    where = f"{prefix}lint"
    _expect(path, where, table, dict, "a table")
    return _parse_lint(path, where, table)


def _problem(path: Path, key: str, text: str) -> InputError:
    return InputError(f"{path}: [{key}]: {text}")


def _expect(path: Path, key: str, value: Any, kind: type, what: str = "") -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _problem(path, key, f"expected {what or kind.__name__}, got {type(value).__name__} {value!r}")
    return value


def _check_keys(path: Path, where: str, table: Mapping[str, Any], known: Mapping[str, str]) -> None:
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise _problem(path, where, f"unknown key '{unknown[0]}'; known keys: {', '.join(known)}")


def _rule_list(path: Path, key: str, value: Any, rule_ids: list[str]) -> tuple[str, ...]:
    _expect(path, key, value, list, "a list of rule ids")
    for item in value:
        _expect(path, key, item, str, "rule id strings")
    bad = unknown_selectors(value, rule_ids)
    if bad:
        raise _problem(path, key, f"'{bad[0]}' names no rule; rules: {', '.join(rule_ids)}")
    return tuple(value)


def _severity(path: Path, key: str, value: Any) -> Severity:
    names = {s.value.upper(): s for s in Severity}
    if not isinstance(value, str) or value.upper() not in names:
        raise _problem(path, key, f"severity {value!r} is not one of {', '.join(names)}")
    return names[value.upper()]


def _date(path: Path, key: str, value: Any) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise _problem(path, key, f"{value!r} is not a date; write expires = 2027-06-30")


def _waiver(path: Path, where: str, entry: Any, rule_ids: list[str]) -> Waiver:
    _expect(path, where, entry, dict, "a table (write [[...waive]] entries)")
    _check_keys(path, where, entry, WAIVER_KEYS)
    for required in ("rule", "node", "reason"):
        if required not in entry:
            raise _problem(path, where, f"missing '{required}' ({WAIVER_KEYS[required]})")
    for key in ("rule", "node", "reason", "model"):
        if key in entry:
            _expect(path, f"{where}.{key}", entry[key], str, "a string")
    if not entry["reason"].strip():
        raise _problem(path, f"{where}.reason", "empty; say why this finding is acceptable")
    if unknown_selectors([entry["rule"]], rule_ids):
        raise _problem(path, f"{where}.rule", f"'{entry['rule']}' names no rule; rules: {', '.join(rule_ids)}")
    expires = _date(path, f"{where}.expires", entry["expires"]) if "expires" in entry else None
    return Waiver(rule=entry["rule"], node=entry["node"], reason=entry["reason"].strip(), model=entry.get("model", "*"),
                  expires=expires, source=f"{path.name}: {where}")


def _parse_lint(path: Path, where: str, table: Mapping[str, Any]) -> LintConfig:
    from npuready.lint.registry import RULES

    rule_ids = list(RULES)
    _check_keys(path, where, table, KEYS)
    root = path.resolve().parent
    cfg = LintConfig(root=root, path=path)
    changes: dict[str, Any] = {}
    if "target" in table:
        changes["target"] = _target(path, f"{where}.target", table["target"])
    for key in ("select", "ignore"):
        if key in table:
            changes[key] = _rule_list(path, f"{where}.{key}", table[key], rule_ids)
    if "fail-on" in table:
        if table["fail-on"] not in FAIL_ON:
            raise _problem(path, f"{where}.fail-on", f"{table['fail-on']!r} is not one of {', '.join(FAIL_ON)}")
        changes["fail_on"] = table["fail-on"]
    if "baseline" in table:
        changes["baseline"] = _baseline_path(path, f"{where}.baseline", table["baseline"], root)
    if "rules-url" in table:
        changes["rules_url"] = _expect(path, f"{where}.rules-url", table["rules-url"], str, "a URL string")
    if "severity" in table:
        sev = _expect(path, f"{where}.severity", table["severity"], dict, "a table rule id = severity")
        for rid in sev:
            if rid not in RULES:
                raise _problem(path, f"{where}.severity", f"unknown rule id '{rid}'; rules: {', '.join(rule_ids)}")
        changes["severity"] = {rid: _severity(path, f"{where}.severity.{rid}", v) for rid, v in sev.items()}
    if "waive" in table:
        entries = _expect(path, f"{where}.waive", table["waive"], list, "an array of tables ([[...waive]])")
        changes["waivers"] = tuple(_waiver(path, f"{where}.waive[{i}]", e, rule_ids) for i, e in enumerate(entries))
    return replace(cfg, **changes)


def _baseline_path(path: Path, key: str, value: Any, root: Path) -> Path:
    """``baseline`` relative to the configuration's folder and kept inside it (or inside its repository): a
    configuration arrives with a pull request, so it may not point at /dev/zero, /etc/shadow or a FIFO.
    Whether it is a regular file within budget is checked when it is read (``read_baseline``)."""
    _expect(path, key, value, str, "a path string")
    if not value or "\x00" in value or os.path.isabs(value) or value.startswith(("/", "\\")) or value[1:2] == ":":
        raise _problem(path, key, f"{value!r}: expected a path relative to {path.name}'s folder")
    inside = git_root(root) or root
    resolved = (root / value).resolve()
    if not resolved.is_relative_to(inside.resolve()):
        raise _problem(path, key, f"{value!r} resolves outside {inside}; keep the baseline inside the "
                                  "configuration's folder or repository")
    return root / value


def _target(path: Path, key: str, value: Any) -> str:
    from npuready.targets import load_target

    _expect(path, key, value, str, "a target name")
    try:
        load_target(value)
    except InputError as exc:
        raise _problem(path, key, str(exc)) from None
    return value


def resolve_config(model: str | Path | None, config: str | Path | None = None, isolated: bool = False,
                   cwd: Path | None = None) -> LintConfig:
    """The configuration for one model: ``config`` if named, none if ``isolated``, else the nearest file."""
    cwd = (cwd or Path.cwd()).resolve()
    if config is not None:
        return load_config(config)
    if not isolated:
        found = (find_config(Path(model).resolve().parent) if model is not None else None) or find_config(cwd)
        if found is not None:
            return load_config(found)
    return LintConfig(root=git_root(cwd) or cwd)
