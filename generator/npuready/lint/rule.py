"""What a lint rule is and what it reports. Rules carry their own documentation."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Mapping

import onnx

from npuready.graph import Graph, Node
from npuready.lint.suppression import Suppression
from npuready.targets import Target


class Severity(str, Enum):
    """How much a finding matters. Only ERROR blocks; members are listed from most to least severe."""

    ERROR = "ERROR"  # deployment is blocked: the target cannot run it (or the portable profile forbids it)
    WARN = "WARN"    # recorded only, never blocks: runs, but lowered/emulated or inefficiently
    INFO = "INFO"    # recorded only: the target runs it natively; the finding says how

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class LintOptions:
    """Options a check may read. ``allow_batched_input`` exempts diagnostic graphs from R001b only;
    ``profile`` picks the severity policy (``npuready.lint.policy.PROFILES``)."""

    allow_batched_input: bool = False
    profile: str = "target"


@dataclass(frozen=True)
class Finding:
    """One violation: which rule, where (node, op, subgraph path) and the evidence (value vs limit)."""

    rule: str
    severity: Severity
    node: str
    op_type: str
    message: str
    evidence: Mapping[str, Any] = field(default_factory=dict)
    graph: str = ""  # "" for the main graph, else e.g. "If_3/then_branch"
    suppression: Suppression | None = None  # set by configuration (waiver) or a baseline, never by a check

    @property
    def suppressed(self) -> bool:
        """True when an active waiver or a baseline entry keeps this finding from failing the run."""
        return self.suppression is not None and self.suppression.active

    @property
    def node_path(self) -> str:
        """The node with its subgraph path ("If_3/then_branch/relu"), or just its name in the main graph."""
        return f"{self.graph}/{self.node}" if self.graph else self.node

    @property
    def where(self) -> str:
        """The node path and op type, as every renderer prints a finding's location."""
        return f"{self.node_path} ({self.op_type})" if self.op_type else self.node_path

    def to_dict(self, rule: "Rule | None" = None) -> dict[str, Any]:
        out = {
            "rule": self.rule, "severity": str(self.severity), "node": self.node, "op_type": self.op_type,
            "message": self.message, "evidence": _plain(self.evidence), "graph": self.graph,
            "suppression": self.suppression.to_dict() if self.suppression else None,
        }
        if rule is not None:
            out["reason"] = rule.why
            out["fix"] = rule.fix
            out["title"] = rule.title
        return out


Check = Callable[[Graph, Target, LintOptions], list[Finding]]
# A check that reads the partition planner's placement (node name -> Placement) instead of recomputing it
PlacedCheck = Callable[[Graph, Target, LintOptions, Mapping[str, Any]], list[Finding]]


@dataclass(frozen=True)
class Rule:
    """A rule: stable id (never reused), severity, title, why, fix hint, a check and example models.

    ``severity`` is the rule's severity in the portable profile (the strict one, regardless of target);
    under the default target profile ``npuready.lint.policy`` decides each finding's severity from what
    the target declares.

    ``bad_example()`` must produce a model for which the check yields findings of exactly this rule;
    ``good_example()`` a close variant that passes every rule.

    ``placed`` is set for a rule that reports on the partition planner's placement (R009): the lint run
    decides the placement once from the other rules' ERRORs and hands it to ``placed``; ``check`` then
    stands alone (it runs that decision itself, for docs and examples).
    """

    id: str
    severity: Severity
    title: str
    why: str
    fix: str
    check: Check
    bad_example: Callable[[], onnx.ModelProto]
    good_example: Callable[[], onnx.ModelProto]
    notes: str = ""
    placed: PlacedCheck | None = None

    def finding(self, node: Node | None, message: str, graph_path: str = "", severity: Severity | None = None,
                **evidence: Any) -> Finding:
        """A finding of this rule; ``severity`` (from ``npuready.lint.policy``) overrides the portable default."""
        return Finding(rule=self.id, severity=severity or self.severity, node=node.name if node else "<graph>",
                       op_type=node.op_type if node else "", message=message, evidence=evidence, graph=graph_path)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and callable(value.item):
        try:
            return value.item()
        except (ValueError, TypeError):
            pass
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)
