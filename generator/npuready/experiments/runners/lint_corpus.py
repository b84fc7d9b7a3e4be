"""Experiment `lint-corpus`: lint the zoo exports and the onnx wheel's real test models."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import onnx

from npuready.errors import InputError
from npuready.experiments.context import RunContext
from npuready.experiments.onnx_corpus import SUBDIRS, corpus_files, corpus_root


def _lint_rows(ctx: RunContext, files: list[Path], label_root: Path, target: str, what: str,
               with_findings: bool) -> list[dict[str, Any]]:
    from npuready.lint import lint

    rows = []
    for path in ctx.progress(files, what):
        if path.is_relative_to(ctx.repo):
            ctx.input(path)
        name = str(path.relative_to(label_root))
        try:
            report = lint(path, target=target)
        except InputError as exc:
            rows.append({"model": name, "loaded": False, "error": str(exc).replace(str(label_root) + "/", ""),
                         "errors": 0, "warnings": 0, "rules": [], "blocked": None})
            continue
        row = {"model": name, "loaded": True, "errors": len(report.errors), "warnings": len(report.warnings),
               "rules": sorted(report.rule_ids()), "blocked": report.blocked}
        if with_findings:
            row["findings"] = [f.to_dict() for f in report.findings]
        rows.append(row)
    return rows


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    per_rule: Counter[str] = Counter()
    for r in rows:
        per_rule.update(r["rules"])
    return {
        "models": len(rows),
        "loaded": sum(r["loaded"] for r in rows),
        "blocked": sum(bool(r["blocked"]) for r in rows),
        "clean": sum(r["loaded"] and r["errors"] == 0 and r["warnings"] == 0 for r in rows),
        "models_per_rule": dict(sorted(per_rule.items())),
    }


def run(ctx: RunContext) -> dict[str, Any]:
    from npuready.lint.registry import RULES

    target = ctx.params.get("target", "edge-10")
    ctx.tool("onnx", onnx.__version__)
    corpus = corpus_files(list(ctx.params.get("corpus_dirs", SUBDIRS)))
    corpus_rows = _lint_rows(ctx, corpus, corpus_root(), target, "onnx corpus", with_findings=False)
    zoo = sorted((ctx.repo / "zoo").glob("*.onnx"))
    zoo_rows = _lint_rows(ctx, zoo, ctx.repo, target, "zoo", with_findings=True)
    return {
        "setup": {"evidence": "measured", "target": target, "rules": list(RULES),
                  "basis": "ONNX graph structure and onnxruntime acceptance; not NPU hardware"},
        "corpus": {"evidence": "measured", "source": f"onnx {onnx.__version__} wheel: onnx/backend/test/data",
                   "summary": _summary(corpus_rows), "models": corpus_rows},
        "zoo": {"evidence": "measured", "summary": _summary(zoo_rows), "models": zoo_rows},
    }
