"""Does a rerun reproduce a committed result? Per experiment: identical, or the first JSON pointer that differs.

Two documents are compared once their timing fields are stripped (``identity.without_timing``) and, for a
reproduction made at another commit, the commit it ran at (``/provenance/git``): where a run happened is not
one of its answers. Everything else - results, inputs and their hashes, tool and package versions, seeds,
failed tasks - must be equal.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from npuready.errors import InputError
from npuready.experiments.identity import without_timing

RUN_IDENTITY = ("provenance", "git")  # the commit a run was made at: differs for every rerun at another commit
CODE = ("provenance", "code")  # the fingerprint of the code that produced it: differs after any source change


@dataclass(frozen=True)
class Comparison:
    experiment: str
    identical: bool
    first_difference: str | None  # JSON pointer (RFC 6901) of the first differing value, in sorted-key order
    committed_commit: str | None
    reproduced_commit: str | None
    # the same, leaving the code fingerprint out: None when only the code that produced them differs
    first_value_difference: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"experiment": self.experiment, "identical": self.identical,
                "first_difference": self.first_difference, "first_value_difference": self.first_value_difference,
                "committed_commit": self.committed_commit, "reproduced_commit": self.reproduced_commit}


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def first_difference(a: Any, b: Any, pointer: str = "") -> str | None:
    """The JSON pointer of the first place ``a`` and ``b`` differ (keys in sorted order), or None if equal."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{pointer}/{_escape(str(key))}"
            found = first_difference(a[key], b[key], f"{pointer}/{_escape(str(key))}")
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{pointer}/{i}")
            if found is not None:
                return found
        return None if len(a) == len(b) else f"{pointer}/{min(len(a), len(b))}"
    if type(a) is not type(b) or a != b:
        return pointer or "/"
    return None


def comparable(doc: Mapping[str, Any], ignore: tuple[tuple[str, str], ...] = (RUN_IDENTITY,)) -> dict[str, Any]:
    """``doc`` without its timing fields and without the commit it ran at (and whatever else ``ignore`` names)."""
    out = without_timing(doc)
    for section, key in ignore:
        if isinstance(out.get(section), Mapping):
            out[section] = {k: v for k, v in out[section].items() if k != key}
    return out


def _commit(doc: Mapping[str, Any]) -> str | None:
    return (doc.get("provenance") or {}).get("git", {}).get("commit")


def compare_docs(experiment: str, committed: Mapping[str, Any], reproduced: Mapping[str, Any]) -> Comparison:
    diff = first_difference(comparable(committed), comparable(reproduced))
    values = diff and first_difference(comparable(committed, (RUN_IDENTITY, CODE)),
                                       comparable(reproduced, (RUN_IDENTITY, CODE)))
    return Comparison(experiment, diff is None, diff, _commit(committed), _commit(reproduced), values)


def _read(path: Path) -> dict[str, Any]:
    """A result to compare: a regular file within budget.MAX_RESULT_BYTES, JSON nested within MAX_NESTING."""
    from npuready.nesting import read_json

    try:
        doc = read_json(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no result.json; run the experiment into that folder first") from None
    if not isinstance(doc, dict):
        raise InputError(f"{path}: top level must be an object")
    return doc


def compare_dirs(committed_root: Path, reproduced_root: Path, ids: list[str]) -> list[Comparison]:
    """Compare ``<committed_root>/<id>/result.json`` with ``<reproduced_root>/<id>/result.json`` for each id."""
    return [compare_docs(exp_id, _read(committed_root / exp_id / "result.json"),
                         _read(reproduced_root / exp_id / "result.json")) for exp_id in ids]
