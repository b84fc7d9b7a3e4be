"""`npuready docs [--check]`: regenerate every generated docs page (rules, support, targets, …)."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "docs", help="regenerate the generated docs pages (rules, probes, targets, comparisons)",
        description="Regenerate every generated page under docs/ (rule pages, the onnxruntime probe table, "
                    "targets, partition-vs-NNAPI, cost-vs-Vela, preprocessing presets) and the generated "
                    "nnapi-mirror target file. docs/EXPERIMENTS.md is written by 'npuready site'.",
        epilog="Exit codes: 0 ok (or --check: everything fresh), 1 --check found stale pages.")
    p.add_argument("--check", action="store_true", help="write nothing; list pages that differ from their generator")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from npuready.atomic import write_text
    from npuready.commands.output import check_result
    from npuready.docs_gen.registry import render_all, stale
    from npuready.paths import repo_root

    if args.check:
        return check_result(stale(), "generated docs are fresh")
    pages = render_all()
    changed = 0
    for rel, text in pages.items():
        path = repo_root() / rel
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            write_text(path, text)
            changed += 1
    print(f"{len(pages)} generated files, {changed} rewritten")
    return 0
