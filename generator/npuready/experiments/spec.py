"""An experiment declaration: ``experiments/<id>/spec.toml`` → frozen ``ExperimentSpec``."""
from __future__ import annotations

import hashlib
import tomllib
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
    label = str(path)
    try:
        raw_bytes = path.read_bytes()
        raw = tomllib.loads(raw_bytes.decode("utf-8"))
    except FileNotFoundError:
        raise InputError(f"{label}: no spec.toml; declare the experiment there first") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{label}: not valid TOML ({exc})") from None
    for key in ("id", "title", "summary", "view"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise InputError(f"{label}: missing text field '{key}'")
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
