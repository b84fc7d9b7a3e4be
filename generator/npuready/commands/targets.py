"""`npuready targets`: list target names, one per line."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("targets", help="list NPU target names (one per line)",
                       description="List the NPU targets npuready knows (data files under npuready/targets/data). "
                                   "With --verbose, show array size, clock and peak TOPS.")
    p.add_argument("--verbose", "-v", action="store_true", help="show a one-line summary per target")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from npuready.targets import load_target, target_names

    for name in target_names():
        if args.verbose:
            t = load_target(name)
            dot = f" dot{t.dot_width}" if t.dot_width > 1 else ""
            print(f"{name}\t{t.kind}\t{t.array_rows}x{t.array_cols}{dot} x{t.cores} core @ {t.clock_mhz:g} MHz\t"
                  f"{t.macs_per_cycle} MACs/cycle\t{t.tops:.2f} TOPS peak\t{t.title}")
        else:
            print(name)
    return 0
