"""`npuready diff REV_A REV_B [--all] [--json]`: key figures of the stored results, between two commits."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "diff", help="how the stored results' key figures moved between two commits",
        description="Read experiments/*/result.json as commit REV_A and commit REV_B stored them (from git "
                    "history, no checkout, no network) and print each experiment's key figures that differ: "
                    "accuracies, cycles, mismatch counts, goal verdicts, with B - A. The key figures per "
                    "experiment are listed in npuready/history/figures.py. Values are what each commit stored: "
                    "measured, simulated or reference as the result says.",
        epilog="Exit codes: 0 ok (whether or not anything changed), 2 a revision that is not a commit here or a "
               "repository without readable git history. Example: npuready diff HEAD~20 HEAD")
    p.add_argument("rev_a", metavar="REV_A", help="the earlier commit (hash, tag, branch, HEAD~N)")
    p.add_argument("rev_b", metavar="REV_B", help="the later commit")
    p.add_argument("--all", action="store_true", help="list unchanged key figures too")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from npuready.history.compare import diff_revisions
    from npuready.history.render import render_json, render_text
    from npuready.paths import repo_root

    diff = diff_revisions(repo_root(), args.rev_a, args.rev_b)
    sys.stdout.write(render_json(diff, args.all) if args.json else render_text(diff, args.all))
    return 0
