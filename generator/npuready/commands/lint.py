"""`npuready lint MODEL.onnx`: NPU-safety rules; exit 0 clean, 1 any ERROR, 2 unusable input."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.shape_args import add_shape_args
    from npuready.lint.registry import RULES
    from npuready.targets import DEFAULT_TARGET

    p = sub.add_parser(
        "lint", help="check ONNX models against NPU-safety rules",
        description=f"Check ONNX models against the NPU-safety rules ({', '.join(RULES)}). ERROR findings block "
                    "deployment (exit 1); WARN findings are recorded only. The rules rest on ONNX graph "
                    "structure and onnxruntime acceptance, not on NPU silicon.",
        epilog="Exit codes: 0 no ERROR, 1 at least one ERROR, 2 unusable input or usage error. "
               "Formats: text (grouped by severity), json, sarif (SARIF 2.1.0, for code scanning), junit. "
               "Rule docs: docs/rules/<ID>.md.")
    p.add_argument("models", nargs="+", metavar="MODEL.onnx", help="one or more ONNX files")
    p.add_argument("--target", "-t", default=DEFAULT_TARGET, help=f"NPU target name (default: {DEFAULT_TARGET}; see 'npuready targets')")
    p.add_argument("--format", "-f", default="text", choices=["text", "json", "sarif", "junit"], help="output format (default: text)")
    p.add_argument("--allow-batched-input", action="store_true",
                   help="exempt diagnostic/probe graphs from R001b (batch 1); never use for deployment graphs")
    p.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE (atomically) instead of stdout")
    add_shape_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from npuready.commands.output import emit
    from npuready.commands.shape_args import load_pinned
    from npuready.lint import lint
    from npuready.lint.render import render

    reports = [lint(load_pinned(m, args), target=args.target, allow_batched_input=args.allow_batched_input)
               for m in args.models]
    text = render(reports, args.format)
    emit(text, args.output)
    return 1 if any(r.blocked for r in reports) else 0
