"""Experiment `lint-corpus`: lint the zoo exports and the onnx wheel's real test models.

Unit of work: one model file; the merge keeps the corpus order, then the zoo, and sums the summaries."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import onnx

from npuready.errors import InputError
from npuready.experiments.context import RunContext
from npuready.experiments.onnx_corpus import SUBDIRS, corpus_files, corpus_root
from npuready.experiments.task import Task


def _lint_row(ctx: RunContext, path: Path, label_root: Path, target: str, with_findings: bool) -> dict[str, Any]:
    from npuready.lint import lint

    if path.is_relative_to(ctx.repo) and not path.is_relative_to(corpus_root()):
        # the onnx wheel's test models are named by the onnx version in the provenance; hashing them only when
        # the virtual environment happens to sit inside the repository made the result depend on where it is
        ctx.input(path)
    name = str(path.relative_to(label_root))
    try:
        report = lint(path, target=target)
    except InputError as exc:
        return {"model": name, "loaded": False, "error": str(exc).replace(str(label_root) + "/", ""),
                "errors": 0, "warnings": 0, "rules": [], "blocked": None}
    row = {"model": name, "loaded": True, "errors": len(report.errors), "warnings": len(report.warnings),
           "rules": sorted(report.rule_ids()), "blocked": report.blocked}
    if with_findings:
        row["findings"] = [f.to_dict() for f in report.findings]
    return row


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


def tasks(ctx: RunContext) -> list[Task]:
    """One task per model file: the onnx wheel's corpus (in folder order), then the zoo exports."""
    corpus = corpus_files(list(ctx.params.get("corpus_dirs", SUBDIRS)))
    zoo = sorted((ctx.repo / "zoo").glob("*.onnx"))
    return ([Task(f"corpus:{p.relative_to(corpus_root())}", {"part": "corpus", "path": str(p)}) for p in corpus]
            + [Task(f"zoo:{p.relative_to(ctx.repo)}", {"part": "zoo", "path": str(p)}) for p in zoo])


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    ctx.tool("onnx", onnx.__version__)
    target = ctx.params.get("target", "edge-10")
    if args["part"] == "corpus":
        return _lint_row(ctx, Path(args["path"]), corpus_root(), target, with_findings=False)
    return _lint_row(ctx, Path(args["path"]), ctx.repo, target, with_findings=True)


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    from npuready.lint.registry import RULES

    target = ctx.params.get("target", "edge-10")
    corpus_rows = [row for key, row in outputs.items() if key.startswith("corpus:")]
    zoo_rows = [row for key, row in outputs.items() if key.startswith("zoo:")]
    return {
        "setup": {"evidence": "analysis", "target": target, "rules": list(RULES),
                  "basis": "ONNX graph structure and onnxruntime acceptance; not NPU hardware"},
        "corpus": {"evidence": "analysis", "source": f"onnx {onnx.__version__} wheel: onnx/backend/test/data",
                   "summary": _summary(corpus_rows), "models": corpus_rows},
        "zoo": {"evidence": "analysis", "summary": _summary(zoo_rows), "models": zoo_rows},
    }
