"""`npuready lint MODEL.onnx`: NPU-safety rules; exit 0 clean, 1 a failing finding, 2 unusable input.

Configuration (``[tool.npuready.lint]`` / ``npuready.toml``) is found per model like ruff finds its own;
options given on the command line win over the file.
"""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.catalog import FAIL_ON, RULE_IDS
    from npuready.commands.shape_args import add_shape_args
    from npuready.targets import DEFAULT_TARGET

    p = sub.add_parser(
        "lint", help="check ONNX models against NPU-safety rules",
        description=f"Check ONNX models against the NPU-safety rules ({', '.join(RULE_IDS)}). ERROR findings block "
                    "deployment (exit 1); WARN findings are recorded only. The rules rest on ONNX graph "
                    "structure and onnxruntime acceptance, not on NPU silicon. Settings are read from "
                    "[tool.npuready.lint] in pyproject.toml or [lint] in npuready.toml, the nearest one from "
                    "the model's folder upward (then from the working folder); see docs/configuration.md.",
        epilog="Profiles: 'target' (default) takes each finding's severity from what the target declares it runs "
               "(ERROR only for what it cannot run; INFO/WARN, saying how, for what it runs natively or through a "
               "lowering), because a deployment is built for one target; 'portable' keeps the strict portability "
               "rules (e.g. every LayerNorm, unfolded BatchNorm or bilinear Resize is an ERROR on any target) for "
               "models that must move between accelerators. "
               "Exit codes: 0 no failing finding, 1 at least one (per --fail-on), 2 unusable input, configuration "
               "or usage error. Waived and baselined findings stay in every format, marked, and never fail. "
               "Formats: text (grouped by severity), json, sarif (SARIF 2.1.0, for code scanning), junit. "
               "Rule docs: docs/rules/<ID>.md.")
    p.add_argument("models", nargs="+", metavar="MODEL.onnx", help="one or more ONNX files")
    p.add_argument("--target", "-t", default=None,
                   help=f"NPU target name (default: the configuration's target, else {DEFAULT_TARGET}; see 'npuready "
                        "targets')")
    p.add_argument("--format", "-f", default="text", choices=["text", "json", "sarif", "junit"],
                   help="output format (default: text)")
    p.add_argument("--allow-batched-input", action="store_true",
                   help="exempt diagnostic/probe graphs from R001b (batch 1); never use for deployment graphs")
    p.add_argument("--profile", default="target", choices=["target", "portable"],
                   help="severity policy: 'target' = what the target runs is not an ERROR (default); 'portable' = the "
                        "strict portability rules, the same ERRORs on every target")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="write the report to FILE (atomically) instead of stdout; - is stdout; a symlink is written "
                        "through to its file; a device, FIFO or folder is refused")
    add_shape_args(p)
    g = p.add_argument_group("configuration")
    g.add_argument("--config", metavar="FILE", help="use this npuready.toml or pyproject.toml instead of searching")
    g.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    g.add_argument("--select", metavar="IDS",
                   help="comma-separated rule ids or prefixes to run (replaces the configuration's)")
    g.add_argument("--ignore", metavar="IDS",
                   help="comma-separated rule ids or prefixes not to run (replaces the configuration's)")
    g.add_argument("--fail-on", choices=FAIL_ON, default=None,
                   help="which active findings exit 1: error, warn (ERROR or WARN) or never (default: the "
                        "configuration's, else error)")
    g.add_argument("--baseline", metavar="FILE", help="findings recorded in FILE do not fail; only new ones do")
    g.add_argument("--write-baseline", metavar="FILE",
                   help="record today's findings (not the waived ones) in FILE; they then count as baselined")
    g.add_argument("--sarif-root", metavar="DIR",
                   help="SARIF artifact URIs are relative to DIR (default: the git root, else the working folder)")
    g.add_argument("--rules-url", metavar="URL",
                   help="SARIF helpUri base: URL<ID>.md (default: the rule page in this checkout)")
    p.set_defaults(func=run)


def _selectors(option: str, text: str | None) -> tuple[str, ...] | None:
    from npuready.errors import InputError
    from npuready.lint.registry import RULES
    from npuready.lint.selection import parse_list, unknown_selectors

    if text is None:
        return None
    items = parse_list(text)
    bad = unknown_selectors(items, list(RULES))
    if bad:
        raise InputError(f"{option} {text}: '{bad[0]}' names no rule; rules: {', '.join(RULES)}")
    return tuple(items)


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace
    from pathlib import Path

    from npuready.analysis import AnalysisOptions, analyse
    from npuready.atomic import write_text
    from npuready.commands.output import emit
    from npuready.commands.shape_args import load_pinned
    from npuready.errors import InputError
    from npuready.lint.baseline import apply_baseline, baseline_json, finding_key, read_baseline
    from npuready.lint.config import resolve_config
    from npuready.lint.render import render
    from npuready.lint.render.options import RenderOptions
    from npuready.targets import DEFAULT_TARGET

    if args.sarif_root is not None and not Path(args.sarif_root).is_dir():
        raise InputError(f"--sarif-root {args.sarif_root}: not a folder; name the repository checkout")
    overrides = {"select": _selectors("--select", args.select), "ignore": _selectors("--ignore", args.ignore),
                 "fail_on": args.fail_on, "rules_url": args.rules_url}
    baselines: dict[str, object] = {}
    reports = []
    rules_url = None
    for model in args.models:
        config = resolve_config(model, args.config, args.isolated).overridden(**overrides)
        source = args.baseline or (str(config.baseline) if config.baseline else None)
        if source and not args.write_baseline and source not in baselines:
            baselines[source] = read_baseline(source)
        target = args.target or config.target or DEFAULT_TARGET
        options = AnalysisOptions(stages=("lint",), allow_batched_input=args.allow_batched_input, profile=args.profile,
                                  config=config,
                                  baseline=baselines.get(source) if source and not args.write_baseline else None)
        reports.append(analyse(load_pinned(model, args), target, options).lint)
        rules_url = rules_url or config.rules_url
    if args.write_baseline:
        keys = [finding_key(r.key, f) for r in reports for f in r.findings if not f.suppressed]
        write_text(args.write_baseline, baseline_json(keys))
        written = read_baseline(args.write_baseline)
        reports = [replace(r, findings=tuple(apply_baseline(r.findings, written, r.key)), baseline=written.path)
                   for r in reports]
    options = RenderOptions(sarif_root=Path(args.sarif_root) if args.sarif_root else None, rules_url=rules_url)
    emit(render(reports, args.format, options), args.output)
    return 1 if any(r.failing for r in reports) else 0
