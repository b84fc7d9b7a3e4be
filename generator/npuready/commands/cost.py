"""`npuready cost MODEL.onnx --target T`: simulated per-layer NPU cost (cycles, bound, memory, energy)."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.shape_args import add_shape_args
    from npuready.targets import DEFAULT_TARGET

    p = sub.add_parser(
        "cost", help="estimate per-layer NPU cycles, latency and energy (simulated)",
        description="Estimate what an ONNX model (float or QDQ) costs on an NPU target with npuready's analytic "
                    "model: per layer the GEMM mapping (M, K, N, tiles), compute and memory cycles, which one bounds "
                    "it, MAC utilisation, SRAM/DRAM bytes and energy; host-fallback time for CPU-placed nodes and the "
                    "NPU<->host transfers; totals, latency and inferences/s. Every figure is SIMULATED from the "
                    "target's data file, not measured on silicon. Q/DQ nodes are folded into int8 layers and float "
                    "models are costed as their INT8 build.",
        epilog="Exit codes: 0 ok, 2 unusable input (missing/invalid model, unknown target, a graph input with an "
               "unpinned dynamic dim: pin it with --batch or --input-shape). "
               "JSON contract: total.cycles, total.latency_s, layers[] with node, op_type, cycles, bound.")
    p.add_argument("model", help="path to an .onnx file")
    p.add_argument("--target", "-t", default=DEFAULT_TARGET,
                   help=f"NPU target name or a .toml target file (default: {DEFAULT_TARGET}; see 'npuready targets')")
    p.add_argument("--format", "-f", choices=("text", "json"), default="text", help="output format (default: text)")
    p.add_argument("--all-layers", action="store_true", help="text: also list free, fused and folded nodes")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="write the report to FILE (atomically) instead of stdout; - is stdout; a symlink is written "
                        "through to its file; a device, FIFO or folder is refused")
    add_shape_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from npuready.commands.output import emit, progress
    from npuready.commands.shape_args import load_pinned
    from npuready.analysis import AnalysisOptions, analyse
    from npuready.cost.render import to_json, to_text

    report = analyse(load_pinned(args.model, args), args.target,
                     AnalysisOptions(stages=("cost",), progress=progress())).cost
    text = to_json(report) if args.format == "json" else to_text(report, all_layers=args.all_layers)
    emit(text, args.output)
    return 0
