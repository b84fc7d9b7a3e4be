"""SARIF 2.1.0 rendering (GitHub code scanning): one run per target, rules with help text and page,
one result per finding, artifact URIs relative to a source root (``uriBaseId`` "SRCROOT").

Waived and baselined findings are results with ``suppressions`` (kind ``external``: the waiver lives in
the configuration, the baseline in its own file, not in the model); with a baseline every result also
carries ``baselineState``.
"""
from __future__ import annotations

import hashlib
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import quote

from npuready.atomic import dumps_json
from npuready.lint.baseline import finding_key
from npuready.lint.render.options import RenderOptions
from npuready.lint.report import LintReport
from npuready.lint.rule import Finding, Rule, Severity
from npuready.lint.suppression import BASELINE
from npuready.version import __version__

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
ROOT_ID = "SRCROOT"
LEVELS = {Severity.ERROR: "error", Severity.WARN: "warning", Severity.INFO: "note"}


def level(severity: Severity) -> str:
    return LEVELS.get(severity, "note")


def automation_id(target: str) -> str:
    """The code-scanning category of one target's run: alerts of two targets never replace each other."""
    return f"npuready/lint/{target}/"


def _root(options: RenderOptions) -> Path:
    from npuready.lint.config import git_root

    if options.sarif_root is not None:
        return Path(options.sarif_root).resolve()
    cwd = Path.cwd().resolve()
    return git_root(cwd) or cwd


def _location(r: LintReport, root: Path) -> dict[str, Any]:
    """Relative to the root when the model lies under it (the usual case in a repository), else absolute."""
    path = Path(r.model)
    if not path.exists():  # an in-memory model: its name, relative to the root
        return {"uri": quote(r.model, safe="/._-~"), "uriBaseId": ROOT_ID}
    path = path.resolve()
    try:
        return {"uri": quote(path.relative_to(root).as_posix(), safe="/._-~"), "uriBaseId": ROOT_ID}
    except ValueError:
        return {"uri": path.as_uri()}


def _fingerprint(key: tuple[str, ...]) -> str:
    """Stable identity of a finding across runs and machines: re-uploads do not duplicate alerts."""
    return hashlib.sha256("\0".join(key).encode("utf-8")).hexdigest()[:32]


def _help_uri(rule: Rule, options: RenderOptions) -> str | None:
    if options.rules_url:
        return f"{options.rules_url}{rule.id}.md"
    from npuready.paths import docs_dir

    page = docs_dir() / "rules" / f"{rule.id}.md"
    return page.resolve().as_uri() if page.is_file() else None


def _rule_descriptor(rule: Rule, options: RenderOptions) -> dict[str, Any]:
    help_text = f"{rule.why}\n\nFix: {rule.fix}" + (f"\n\nNotes: {rule.notes}" if rule.notes else "")
    help_md = f"**Why.** {rule.why}\n\n**Fix.** {rule.fix}" + (f"\n\n**Notes.** {rule.notes}" if rule.notes else "")
    out = {
        "id": rule.id,
        "name": "".join(w[:1].upper() + w[1:] for w in rule.title.replace("-", " ").split()),
        "shortDescription": {"text": rule.title},
        "fullDescription": {"text": rule.why},
        "help": {"text": help_text, "markdown": help_md},
        "defaultConfiguration": {"level": level(rule.severity)},
        "properties": {"tags": ["npu", "onnx"], "severity": str(rule.severity),
                       "basis": "ONNX graph structure; not NPU hardware"},
    }
    uri = _help_uri(rule, options)
    if uri:
        out["helpUri"] = uri
    return out


def _suppressions(f: Finding) -> list[dict[str, Any]]:
    s = f.suppression
    if s is None or not s.active:
        return []
    out = {"kind": "external", "justification": s.reason,  # no "status": the vendored schema calls it "state"
           "properties": {"npuready": s.kind, "source": s.source}}
    if s.expires:
        out["properties"]["expires"] = s.expires.isoformat()
    return [out]


def _result(r: LintReport, f: Finding, artifact: dict[str, Any], index: dict[str, int]) -> dict[str, Any]:
    props: dict[str, Any] = {"target": r.target, "opType": f.op_type, "severity": str(f.severity),
                             "evidence": f.to_dict()["evidence"]}
    if f.suppression is not None and not f.suppression.active:
        props["waiverExpired"] = {"reason": f.suppression.reason, "expires": f.suppression.expires.isoformat(),
                                  "source": f.suppression.source}
    out = {
        "ruleId": f.rule,
        "ruleIndex": index[f.rule],
        "level": level(f.severity),
        "message": {"text": f"{f.where}: {f.message}"},
        "locations": [{
            # An .onnx file has no lines; GitHub code scanning needs region.startLine to place an
            # alert, so the whole-file alert sits on line 1 and the node is the logical location.
            "physicalLocation": {"artifactLocation": artifact, "region": {"startLine": 1}},
            "logicalLocations": [{"name": f.node, "fullyQualifiedName": f.node_path, "kind": "object"}],
        }],
        "partialFingerprints": {"npureadyNode/v2": _fingerprint(finding_key(r.key, f))},
        "properties": props,
    }
    suppressions = _suppressions(f)
    if suppressions:
        out["suppressions"] = suppressions
    if r.baseline:
        baselined = f.suppression is not None and f.suppression.kind == BASELINE
        out["baselineState"] = "unchanged" if baselined else "new"
    return out


def _run(target: str, reports: Sequence[LintReport], options: RenderOptions, root: Path) -> dict[str, Any]:
    from npuready.lint.registry import RULES

    index = {rid: i for i, rid in enumerate(RULES)}
    artifacts: list[dict[str, Any]] = []
    artifact_index: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    for r in reports:
        location = _location(r, root)
        if location["uri"] not in artifact_index:
            artifact_index[location["uri"]] = len(artifacts)
            artifacts.append({"location": dict(location), "roles": ["analysisTarget"]})
        artifact = {**location, "index": artifact_index[location["uri"]]}
        results.extend(_result(r, f, artifact, index) for f in r.findings)
    return {
        "tool": {"driver": {"name": "npuready", "version": __version__, "semanticVersion": __version__,
                            "rules": [_rule_descriptor(rule, options) for rule in RULES.values()]}},
        "automationDetails": {"id": automation_id(target)},
        "originalUriBaseIds": {ROOT_ID: {"uri": root.as_uri().rstrip("/") + "/"}},
        "artifacts": artifacts,
        "results": results,
        "columnKind": "unicodeCodePoints",
        "properties": {"target": target, "allowBatchedInput": any(r.options.allow_batched_input for r in reports)},
    }


def to_sarif(reports: Sequence[LintReport], options: RenderOptions | None = None) -> dict[str, Any]:
    options = options or RenderOptions()
    root = _root(options)
    by_target: dict[str, list[LintReport]] = defaultdict(list)
    for r in reports:
        by_target[r.target].append(r)
    return {"$schema": SCHEMA_URI, "version": "2.1.0",
            "runs": [_run(t, rs, options, root) for t, rs in by_target.items()]}


def render(reports: Sequence[LintReport], options: RenderOptions | None = None) -> str:
    return dumps_json(to_sarif(reports, options))
