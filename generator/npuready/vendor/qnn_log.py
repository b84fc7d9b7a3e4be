"""Read onnxruntime's verbose log of a QNN session: which nodes the QNN EP refused, and why.

Two kinds of lines carry it (onnxruntime 1.32, onnxruntime-qnn 2.7.0):
``REASON : Operators of type `Erf` are not supported by QNN EP.Erf node `erf` will not be assigned to
QNN EP.`` (one per refused node, per GetCapability pass), and the final "Node placements" block:
``Node(s) placed on [QNNExecutionProvider]. Number of nodes: 2`` followed by one line per node,
``  OpType (node name)`` — for QNN these are its compiled partitions, for the CPU the original nodes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

REASON = re.compile(r"REASON : (?P<why>.*?)\s*(?P<op>\w+) node `(?P<node>[^`]*)` will not be assigned to QNN EP")
PLACED = re.compile(r"Node\(s\) placed on \[(?P<ep>\w+)\]\. Number of nodes: (?P<n>\d+)")
NODE = re.compile(r"VerifyEachNodeIsAssignedToAnEp\]\s{3}(?P<op>\S+) \((?P<name>.*)\)\s*$")


@dataclass(frozen=True)
class Refusal:
    node: str
    op_type: str
    reason: str


@dataclass(frozen=True)
class QnnPlacement:
    partitions: int                           # compiled QNN graphs (each runs whole on HTP)
    cpu_nodes: tuple[tuple[str, str], ...]    # (op type, node name) left to onnxruntime's CPU provider
    refused: tuple[Refusal, ...]              # nodes the QNN EP declined, with its reason

    def to_dict(self) -> dict:
        return {"qnn_partitions": self.partitions,
                "cpu_nodes": [{"op_type": op, "node": name} for op, name in self.cpu_nodes],
                "refused": [{"node": r.node, "op_type": r.op_type, "reason": r.reason} for r in self.refused]}


def parse(log: str) -> QnnPlacement:
    refused: dict[str, Refusal] = {}
    for m in REASON.finditer(log):
        refused.setdefault(m["node"], Refusal(m["node"], m["op"], m["why"].strip().rstrip(".") + "."))
    lines = log.splitlines()
    start = max((i for i, line in enumerate(lines) if "Node placements" in line), default=-1)
    partitions, cpu, ep = 0, [], None
    for line in lines[start + 1:] if start >= 0 else []:
        if m := PLACED.search(line):
            ep = m["ep"]
            if ep == "QNNExecutionProvider":
                partitions = int(m["n"])
            continue
        if m := NODE.search(line):
            if ep == "CPUExecutionProvider":
                cpu.append((m["op"], m["name"]))
            continue
        if ep is not None and "VerifyEachNodeIsAssignedToAnEp" not in line:
            break
    return QnnPlacement(partitions, tuple(cpu), tuple(refused.values()))
