"""What the site reads: stored experiment results and docs Markdown (nothing else)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from npuready.errors import InputError
from npuready.evidence import EVIDENCE

VIEWS = ("models", "npu", "integer", "records")


@dataclass(frozen=True)
class Experiment:
    """One stored ``experiments/<id>/result.json`` (the parsed document, untouched)."""

    id: str
    doc: Mapping[str, Any]

    @property
    def title(self) -> str:
        return str(self.doc["title"])

    @property
    def summary(self) -> str:
        return str(self.doc["summary"])

    @property
    def view(self) -> str:
        return str(self.doc["view"])

    @property
    def results(self) -> Mapping[str, Any]:
        return self.doc["results"]

    def evidence(self) -> list[str]:
        return sorted({str(s.get("evidence")) for s in self.results.values() if isinstance(s, dict)})


@dataclass(frozen=True)
class Doc:
    """One ``docs/<name>.md`` file."""

    name: str  # path under docs/ without ".md", e.g. "EXPERIMENTS" or "rules/R001a"
    text: str


def load_experiments(root: Path) -> dict[str, Experiment]:
    """Every ``<root>/*/result.json``, by id, sorted. Malformed files are an InputError naming the file."""
    found: dict[str, Experiment] = {}
    for path in sorted(root.glob("*/result.json")):
        doc = _read_result(path)
        _check_shape(doc, path)
        found[doc["id"]] = Experiment(id=doc["id"], doc=doc)
    return found


def _read_result(path: Path) -> Any:
    """One result file: a regular file within budget.MAX_RESULT_BYTES, JSON nested within budget.MAX_NESTING."""
    from npuready.nesting import read_json

    try:
        return read_json(path)
    except InputError as exc:
        raise InputError(f"{exc}; rerun 'npuready run {path.parent.name}'") from None


def _check_shape(doc: Any, path: Path) -> None:
    if not isinstance(doc, dict):
        raise InputError(f"{path}: top level must be an object")
    for key in ("id", "title", "summary", "view", "results"):
        if key not in doc:
            raise InputError(f"{path}: missing '{key}'; rerun 'npuready run {path.parent.name}'")
    if doc["id"] != path.parent.name:
        raise InputError(f"{path}: id '{doc['id']}' must equal its folder name '{path.parent.name}'")
    if doc["view"] not in VIEWS:
        raise InputError(f"{path}: view '{doc['view']}' is not one of {', '.join(VIEWS)}")
    if not isinstance(doc["results"], dict) or not doc["results"]:
        raise InputError(f"{path}: 'results' must be a non-empty object of sections")
    for name, section in doc["results"].items():
        if not isinstance(section, dict) or section.get("evidence") not in EVIDENCE:
            raise InputError(f"{path}: results section '{name}' needs evidence = {' | '.join(EVIDENCE)}")


def load_docs(root: Path) -> dict[str, Doc]:
    """Every ``<root>/**/*.md`` by relative path without ``.md`` (``rules/R001a``), sorted."""
    docs = {}
    for path in sorted(root.rglob("*.md")):
        name = path.relative_to(root).with_suffix("").as_posix()
        docs[name] = Doc(name=name, text=path.read_text(encoding="utf-8"))
    return docs
