"""`npuready lint MODEL.onnx`: NPU-safety rules; exit 0 clean, 1 any ERROR, 2 unusable input."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.catalog import RULE_IDS
    from npuready.targets import DEFAULT_TARGET

    p = sub.add_parser(
        "lint", help="check ONNX models against NPU-safety rules",
        description=f"Check ONNX models against the NPU-safety rules ({', '.join(RULE_IDS)}). ERROR findings block "
                    "deployment (exit 1); WARN findings are recorded only. The rules rest on ONNX graph "
                    "structure and onnxruntime acceptance, not on NPU silicon.",
        epilog="Profiles: 'target' (default) takes each finding's severity from what the target declares it runs "
               "(ERROR only for what it cannot run; INFO/WARN, saying how, for what it runs natively or through a "
               "lowering), because a deployment is built for one target; 'portable' keeps the strict portability "
               "rules (e.g. every LayerNorm, unfolded BatchNorm or bilinear Resize is an ERROR on any target) for "
               "models that must move between accelerators. "
               "Exit codes: 0 no ERROR, 1 at least one ERROR, 2 unusable input or usage error. "
               "Formats: text (grouped by severity), json, sarif (SARIF 2.1.0, for code scanning), junit. "
               "Rule docs: docs/rules/<ID>.md.")
    p.add_argument("models", nargs="+", metavar="MODEL.onnx", help="one or more ONNX files")
    p.add_argument("--target", "-t", default=DEFAULT_TARGET, help=f"NPU target name (default: {DEFAULT_TARGET}; see 'npuready targets')")
    p.add_argument("--format", "-f", default="text", choices=["text", "json", "sarif", "junit"], help="output format (default: text)")
    p.add_argument("--allow-batched-input", action="store_true",
                   help="exempt diagnostic/probe graphs from R001b (batch 1); never use for deployment graphs")
    p.add_argument("--profile", default="target", choices=["target", "portable"],
                   help="severity policy: 'target' = what the target runs is not an ERROR (default); 'portable' = the "
                        "strict portability rules, the same ERRORs on every target")
    p.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE (atomically) instead of stdout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from npuready.commands.output import emit
    from npuready.lint import lint
    from npuready.lint.render import render

    reports = [lint(m, target=args.target, allow_batched_input=args.allow_batched_input, profile=args.profile)
               for m in args.models]
    text = render(reports, args.format)
    emit(text, args.output)
    return 1 if any(r.blocked for r in reports) else 0
