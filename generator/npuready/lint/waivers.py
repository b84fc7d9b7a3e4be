"""Per-node waivers from the configuration: rule + node glob (+ model glob), a mandatory reason, an optional
expiry date. A waived finding stays in every report, marked; an expired waiver stops waiving and says so."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from typing import Iterable, Sequence

from npuready.lint.rule import Finding
from npuready.lint.suppression import WAIVER, Suppression


@dataclass(frozen=True)
class Waiver:
    rule: str                  # a rule id or id prefix ("R006", "R00")
    node: str                  # glob over the node path ("encoder/ln_*", "If_3/then_branch/*")
    reason: str                # mandatory: why this finding is acceptable
    source: str                # "pyproject.toml: waive[1]", for messages and SARIF
    model: str = "*"           # glob over the model path relative to the configuration's folder
    expires: dt.date | None = None

    def matches(self, finding: Finding, model_key: str) -> bool:
        return (finding.rule.startswith(self.rule) and fnmatchcase(finding.node_path, self.node)
                and fnmatchcase(model_key, self.model))

    def expired(self, today: dt.date) -> bool:
        return self.expires is not None and today > self.expires

    def suppression(self, today: dt.date) -> Suppression:
        return Suppression(kind=WAIVER, reason=self.reason, source=self.source, active=not self.expired(today),
                           expires=self.expires)


def apply_waivers(findings: Iterable[Finding], waivers: Sequence[Waiver], model_key: str,
                  today: dt.date) -> list[Finding]:
    """Attach the first matching waiver to each finding. A live waiver wins over an expired one, so an
    expired waiver only shows when nothing else still waives the finding."""
    out = []
    for f in findings:
        matching = [w for w in waivers if w.matches(f, model_key)]
        live = [w for w in matching if not w.expired(today)]
        chosen = (live or matching)[:1]
        out.append(replace(f, suppression=chosen[0].suppression(today)) if chosen else f)
    return out
