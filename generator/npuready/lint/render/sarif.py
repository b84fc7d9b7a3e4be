"""SARIF 2.1.0 rendering (GitHub code scanning): rules with help text, one result per finding."""
from __future__ import annotations

import hashlib
from pathlib import PurePath
from typing import Any, Sequence
from urllib.parse import quote

from npuready import __version__
from npuready.atomic import dumps_json
from npuready.lint.report import LintReport
from npuready.lint.rule import Rule, Severity

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {Severity.ERROR: "error", Severity.WARN: "warning", Severity.INFO: "note"}


def _uri(model: str) -> str:
    """A relative (or absolute path) URI reference for the model file."""
    text = PurePath(model).as_posix()
    return quote(text, safe="/:._-~")


def _fingerprint(*parts: str) -> str:
    """Stable identity of a finding across runs (rule, model, node path, tensor): re-uploads do not duplicate alerts."""
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]


def _rule_descriptor(rule: Rule) -> dict[str, Any]:
    help_text = f"{rule.why}\n\nFix: {rule.fix}" + (f"\n\nNotes: {rule.notes}" if rule.notes else "")
    help_md = f"**Why.** {rule.why}\n\n**Fix.** {rule.fix}" + (f"\n\n**Notes.** {rule.notes}" if rule.notes else "")
    return {
        "id": rule.id,
        "name": "".join(w[:1].upper() + w[1:] for w in rule.title.replace("-", " ").split()),
        "shortDescription": {"text": rule.title},
        "fullDescription": {"text": rule.why},
        "help": {"text": help_text, "markdown": help_md},
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
        "properties": {"tags": ["npu", "onnx"], "severity": str(rule.severity),
                       "basis": "ONNX graph structure; not NPU hardware"},
    }


def to_sarif(reports: Sequence[LintReport]) -> dict[str, Any]:
    from npuready.lint.registry import RULES

    index = {rid: i for i, rid in enumerate(RULES)}
    artifacts: list[dict[str, Any]] = []
    artifact_index: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    for r in reports:
        uri = _uri(r.model)
        if uri not in artifact_index:
            artifact_index[uri] = len(artifacts)
            artifacts.append({"location": {"uri": uri}, "roles": ["analysisTarget"]})
        for f in r.findings:
            fqn = f.node_path
            results.append({
                "ruleId": f.rule,
                "ruleIndex": index[f.rule],
                "level": LEVELS[f.severity],
                "message": {"text": f"{f.where}: {f.message}"},
                "locations": [{
                    # An .onnx file has no lines; GitHub code scanning needs region.startLine to place an
                    # alert, so the whole-file alert sits on line 1 and the node is the logical location.
                    "physicalLocation": {"artifactLocation": {"uri": uri, "index": artifact_index[uri]},
                                         "region": {"startLine": 1}},
                    "logicalLocations": [{"name": f.node, "fullyQualifiedName": fqn, "kind": "object"}],
                }],
                "partialFingerprints": {"npureadyNode/v1": _fingerprint(f.rule, uri, fqn, str(f.evidence.get("tensor", "")))},
                "properties": {"target": r.target, "opType": f.op_type, "evidence": f.to_dict()["evidence"]},
            })
    run = {
        "tool": {"driver": {"name": "npuready", "version": __version__, "semanticVersion": __version__,
                            "rules": [_rule_descriptor(rule) for rule in RULES.values()]}},
        "artifacts": artifacts,
        "results": results,
        "columnKind": "unicodeCodePoints",
        "properties": {"targets": sorted({r.target for r in reports}),
                       "allowBatchedInput": any(r.options.allow_batched_input for r in reports)},
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render(reports: Sequence[LintReport]) -> str:
    return dumps_json(to_sarif(reports))
