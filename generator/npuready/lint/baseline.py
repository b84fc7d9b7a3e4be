"""The baseline file: today's findings, recorded so that only new ones fail (``--write-baseline``/``--baseline``).

A finding is identified by its model path relative to the configuration's folder, its rule and its node
path (plus the tensor it names, when a rule reports several tensors of one node) — never by message text
or numbers, so a re-export that changes a shape value does not turn an old finding into a new one.
Entries form a multiset: two identical findings need two entries.
"""
from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Sequence

from npuready.errors import InputError
from npuready.lint.rule import Finding
from npuready.lint.suppression import BASELINE, Suppression

FORMAT = "npuready-lint-baseline/1"
Key = tuple[str, str, str, str]


def finding_key(model_key: str, f: Finding) -> Key:
    return (model_key, f.rule, f.node_path, str(f.evidence.get("tensor", "")))


@dataclass(frozen=True)
class Baseline:
    path: str
    entries: tuple[tuple[Key, int], ...]

    def counts(self) -> Counter:
        return Counter(dict(self.entries))


def _entry(key: Key) -> dict[str, str]:
    model, rule, node, tensor = key
    out = {"model": model, "rule": rule, "node": node}
    if tensor:
        out["tensor"] = tensor
    return out


def baseline_json(keys: Iterable[Key]) -> str:
    """The file ``--write-baseline`` writes: sorted entries, one per finding."""
    from npuready.atomic import dumps_json

    return dumps_json({"format": FORMAT, "findings": [_entry(k) for k in sorted(keys)]})


def read_baseline(path: str | Path) -> Baseline:
    """The baseline in ``path``: a regular file within budget.MAX_BASELINE_BYTES (checked before it is opened),
    UTF-8 JSON nested within budget.MAX_NESTING."""
    from npuready.inputs import budget
    from npuready.inputs.json_file import read_json

    where = str(path)
    if not os.path.lexists(path):
        raise InputError(f"{where}: baseline file not found; create it with 'npuready lint ... --write-baseline "
                         f"{where}'")
    try:
        data = read_json(path, label=where, max_bytes=budget.MAX_BASELINE_BYTES)
    except InputError as exc:
        raise InputError(f"{exc}; rewrite it with --write-baseline") from None
    except OSError as exc:
        raise InputError(f"{where}: not a readable baseline file ({exc.strerror or exc}); rewrite it with "
                         "--write-baseline") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("findings"), list):
        raise InputError(f"{where}: not an npuready baseline (expected \"format\": \"{FORMAT}\" and a \"findings\" "
                         "list); rewrite it with --write-baseline")
    keys: list[Key] = []
    for i, e in enumerate(data["findings"]):
        if not isinstance(e, dict) or not all(isinstance(e.get(k), str) for k in ("model", "rule", "node")):
            raise InputError(f"{where}: findings[{i}] needs string fields model, rule and node; rewrite it with "
                             "--write-baseline")
        keys.append((e["model"], e["rule"], e["node"], str(e.get("tensor", ""))))
    return Baseline(path=where, entries=tuple(sorted(Counter(keys).items())))


def apply_baseline(findings: Sequence[Finding], baseline: Baseline, model_key: str) -> list[Finding]:
    """Mark findings the baseline records (each entry absorbs one finding); waived findings keep their waiver."""
    left = baseline.counts()
    mark = Suppression(kind=BASELINE, reason=f"recorded in baseline {baseline.path}", source=baseline.path)
    out = []
    for f in findings:
        key = finding_key(model_key, f)
        if not f.suppressed and left[key] > 0:
            left[key] -= 1
            f = replace(f, suppression=mark)
        out.append(f)
    return out
