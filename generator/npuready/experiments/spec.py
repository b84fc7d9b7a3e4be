"""An experiment declaration: ``experiments/<id>/spec.toml`` → frozen ``ExperimentSpec``."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from npuready.errors import InputError

VIEWS = ("models", "npu", "integer", "records")
# kinds of experiment a spec can declare instead of having a runner of its own (registry.KINDS)
KINDS = ("model-report",)


@dataclass(frozen=True)
class ExperimentSpec:
    id: str
    title: str
    summary: str
    view: str
    params: Mapping[str, Any] = field(default_factory=dict)
    path: Path | None = None
    sha256: str = ""
    kind: str = ""  # "" = the experiment has its own runner (registry.RUNNERS); else one of KINDS

    def to_dict(self) -> dict[str, Any]:
        out = {"id": self.id, "title": self.title, "summary": self.summary, "view": self.view,
               "params": dict(self.params)}
        if self.kind:
            out["kind"] = self.kind
        return out


def load_spec(path: Path) -> ExperimentSpec:
    from npuready.inputs import budget
    from npuready.inputs.files import regular_file
    from npuready.inputs.toml_file import parse_toml

    label = str(path)
    if not path.exists():
        raise InputError(f"{label}: no spec.toml; declare the experiment there first")
    size = regular_file(path, label, what="spec file").stat().st_size  # never a FIFO or device
    if size > budget.MAX_CONFIG_BYTES:
        raise InputError(f"{label}: {size:,} bytes, above the {budget.MAX_CONFIG_BYTES:,}-byte budget for a spec")
    raw_bytes = path.read_bytes()
    raw = parse_toml(raw_bytes, label)  # UTF-8, nesting bounded
    for key in ("id", "title", "summary", "view"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise InputError(f"{label}: missing text field '{key}'")
    from npuready.experiments.params import ID_PATTERN

    if not ID_PATTERN.match(raw["id"]):
        raise InputError(f"{label}: id '{raw['id']}' is not an experiment id (lower-case letters, digits and '-')")
    if raw["id"] != path.parent.name:
        raise InputError(f"{label}: id '{raw['id']}' must equal its folder name '{path.parent.name}'")
    if raw["view"] not in VIEWS:
        raise InputError(f"{label}: view '{raw['view']}' is not one of {', '.join(VIEWS)}")
    params = raw.get("params", {})
    if not isinstance(params, dict):
        raise InputError(f"{label}: [params] must be a table")
    kind = raw.get("kind", "")
    if kind and kind not in KINDS:
        raise InputError(f"{label}: kind '{kind}' is not one of {', '.join(KINDS)}")
    unknown = set(raw) - {"id", "title", "summary", "view", "params", "kind"}
    if unknown:
        raise InputError(f"{label}: unknown field(s) {sorted(unknown)}; put runner settings under [params]")
    return ExperimentSpec(id=raw["id"], title=raw["title"], summary=raw["summary"], view=raw["view"],
                          params=params, path=path, sha256=hashlib.sha256(raw_bytes).hexdigest(), kind=kind)
