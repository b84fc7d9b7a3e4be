"""`npuready probes`: run the operator probe table on onnxruntime; print a summary, write JSON / Markdown on request."""
from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "probes", help="run the operator probes on onnxruntime (a CPU baseline, not NPU support)",
        description="Build every operator probe graph (one op or a small pattern each, e.g. a Temporal Shift "
                    "Module and Sigmoid), create an onnxruntime session for it and run it once on random input. "
                    "The table is an onnxruntime baseline: it says nothing about whether a given NPU supports an op. "
                    "docs/support.md is rendered by `npuready docs` from the stored experiment "
                    "(`npuready run probes`), not by this command.",
        epilog="Exit codes: 0 the table was written (failed probes are data, not errors), 2 unusable arguments.")
    p.add_argument("--out", "-o", metavar="FILE", help="write the result table as JSON to FILE (atomically)")
    p.add_argument("--docs", metavar="FILE", help="write the live table as Markdown to FILE (atomically)")
    p.set_defaults(func=run, output_files=("out", "docs"))  # files, checked before the work


def run(args: argparse.Namespace) -> int:
    from npuready.atomic import write_json, write_text
    from npuready.errors import InputError
    from npuready.probes import run_all
    from npuready.probes.run import table
    from npuready.probes.support_doc import LIVE, render

    doc = table(run_all(progress=True))
    try:
        if args.out:
            write_json(args.out, doc)
        if args.docs:
            write_text(args.docs, render(doc, LIVE))
    except OSError as exc:
        raise InputError(f"{exc.filename or args.out or args.docs}: cannot write ({exc.strerror or exc})") from None
    s = doc["summary"]
    print(f"{s['probes']} probes: {s['accepted']} accepted, {s['failed']} failed "
          f"(onnxruntime {doc['runtime']['onnxruntime']} baseline, not NPU support)", file=sys.stderr)
    return 0
