"""`npuready partition MODEL.onnx`: CPU head / NPU body / CPU tail plan; exit 0, or 2 on unusable input."""
from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.shape_args import add_shape_args
    from npuready.targets import DEFAULT_TARGET

    p = sub.add_parser(
        "partition", help="plan the CPU head / NPU body / CPU tail split and optionally extract the parts",
        description="Place every node on the NPU or the CPU (target's supported-op table, lint ERRORs, static "
                    "shapes), cut the graph into contiguous segments (CPU head, NPU body or bodies, CPU tail), and "
                    "report each segment's ops and share of MACs, the tensors crossing every CPU<->NPU boundary "
                    "(shape, dtype, bytes per inference), the calibration tensors, and what now runs on the CPU "
                    "with the npuready.runtime function that implements it. Constants and shape helpers are "
                    "folded: they follow their consumers. The plan rests on ONNX structure, not on NPU silicon.",
        epilog="Exit codes: 0 plan written (whatever the verdict), 2 unusable input (bad model, unknown target, "
               "unwritable --extract folder, a graph input with an unpinned dynamic dim: pin it with --batch or "
               "--input-shape). --extract DIR writes head.onnx, body_0.onnx, body_1.onnx ... (always "
               "indexed), cpu_<k>.onnx between bodies, tail.onnx, and manifest.json (run order and connections).")
    p.add_argument("model", metavar="MODEL.onnx", help="ONNX model file")
    p.add_argument("--target", "-t", default=DEFAULT_TARGET,
                   help=f"NPU target name (default: {DEFAULT_TARGET}; see 'npuready targets')")
    p.add_argument("--format", "-f", default="text", choices=["text", "json"], help="report format (default: text)")
    p.add_argument("--extract", metavar="DIR", help="write the parts as ONNX files plus manifest.json into DIR")
    p.add_argument("--edges", default="npu", choices=["npu", "cpu"],
                   help="npu (default): place by support only; cpu: also move element-wise pre-processing before the "
                        "first and post-processing after the last MAC op (Conv/Gemm/MatMul) to the CPU")
    p.add_argument("--allow-batched-input", action="store_true",
                   help="lint with R001b exempted (diagnostic graphs only)")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="write the report to FILE (atomically) instead of stdout; - is stdout; a symlink is written "
                        "through to its file; a device, FIFO or folder is refused")
    add_shape_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from npuready.commands.output import emit
    from npuready.commands.shape_args import load_pinned
    from npuready.analysis import AnalysisOptions, analyse
    from npuready.partition import extract
    from npuready.partition.render import render

    options = AnalysisOptions(stages=("partition",), edges=args.edges, allow_batched_input=args.allow_batched_input)
    plan = analyse(load_pinned(args.model, args), args.target, options).plan
    text = render(plan, args.format)
    if args.extract:
        try:
            manifest = extract(plan, args.extract)
        except OSError as exc:
            from npuready.errors import InputError

            raise InputError(f"{args.extract}: cannot write the parts ({exc.strerror or exc})") from None
    emit(text, args.output)
    if args.extract:  # after every write: a failed one prints its one error line alone
        print(f"npuready partition: wrote {len(manifest['parts'])} part(s) and manifest.json to {args.extract}",
              file=sys.stderr)
    return 0
