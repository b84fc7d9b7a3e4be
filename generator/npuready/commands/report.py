"""`npuready report MODEL.onnx --out DIR`: one model through lint, partition, cost (and quantize + parity
ladder with --calib), per target, as DIR/result.json with a graph description a page can draw."""
from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.preset_arg import add_preset_arg
    from npuready.commands.shape_args import add_shape_args

    p = sub.add_parser(
        "report", help="model report: lint, partition, per-layer cost (and parity ladder) per target, as JSON",
        description="Build one model's report for every --target: lint findings, the partition plan with every "
                    "node's placement and the crossing tensors, per-layer cost, and with --calib the parity "
                    "ladder (float -> fake-quant -> integer engine); plus a compact description of the ONNX "
                    "graph (nodes, edges, op types, shapes, small attributes; If/Loop subgraphs collapsed). "
                    "Lint and partition rest on ONNX structure and the targets' op tables, not NPU silicon; "
                    "cost figures are simulated; the ladder is measured here on CPU. MODEL can also be "
                    "library:NAME, an architecture built at run time by timm/torchvision/ultralytics with "
                    "RANDOM-INITIALISED weights (see 'npuready models list'; needs the corpus extra).",
        epilog="Exit codes: 0 report written, 1 written but a sanity check or the parity gate failed (with --calib "
               "the last line shows the ladder, the gate verdict and its cause), 2 unusable input. Writes "
               "DIR/result.json and DIR/report.html, one self-contained file (styles, scripts, the layout code and the "
               "report inlined) that opens from file:// with no network: graph view, placements, lint badges, "
               "per-layer table. --no-inline writes the page plus DIR/assets/ instead. The run's wall seconds "
               "(measured) go to DIR/timing.json, so two runs on one model write identical result.json and "
               "report.html. The files are written as a set (staged beside DIR, then moved into place); DIR must "
               "be new, empty or an earlier report (a folder holding other files is refused: give a new folder). "
               "Progress lines ('report: MODEL on TARGET') go to stderr only when it is a terminal; what the "
               "model's metadata says and the notes on the report are printed once the files are written, so "
               "a run refused with exit 2 prints one stderr line.")
    p.add_argument("model", help="an .onnx file, or library:NAME")
    p.add_argument("--target", "-t", action="append", dest="targets", metavar="T",
                   help="target (repeatable; default: edge-10 and ethos-u55-128)")
    p.add_argument("--calib", metavar="SRC",
                   help="calibration inputs: fashion-mnist:train|test, a calibration folder (manifest.json), "
                        "an .npz, or a folder of photos with --preset; enables quantize + parity ladder")
    add_preset_arg(p, "turns a --calib folder of photos into model inputs")
    p.add_argument("--images", type=int, default=32, help="calibration/ladder inputs (default 32)")
    p.add_argument("--stages", default="lint,partition,cost,quantize",
                   help="comma-separated subset of lint,partition,cost,quantize (default: all)")
    p.add_argument("--edges", choices=("auto", "npu", "cpu"), default="auto",
                   help="partition edges policy: cpu = post-processing after the last MAC op (decode, sigmoid) and "
                        "pre-processing before the first run on the host; npu = keep them on the NPU when it can; "
                        "auto (default) = cpu for detection/segmentation/pose library recipes, npu otherwise")
    from npuready.commands.verify import add_task_args

    add_task_args(p, limit=False)
    p.add_argument("--out", "-o", required=True, metavar="DIR", help="output folder (DIR/result.json, DIR/report.html)")
    p.add_argument("--no-inline", dest="inline", action="store_false",
                   help="write report.html plus DIR/assets/ (the site's layout) instead of one self-contained file")
    p.add_argument("--model-explorer", action="store_true",
                   help="also write DIR/model-explorer/<target>.{cycles,placement,findings}.json: node data that "
                        "Google's Model Explorer loads as overlays on the same ONNX file")
    from npuready.inputs.budget import MAX_REPORT_NODES as DEFAULT_MAX_REPORT_NODES

    p.add_argument("--max-report-nodes", type=int, default=DEFAULT_MAX_REPORT_NODES, metavar="N",
                   help="report size budget: above N graph nodes (or as many edges, inputs or outputs) the report "
                        "lists the first N nodes and at most N entries per list, with totals and checks over the whole "
                        f"graph, and the page says it is summarised (default {DEFAULT_MAX_REPORT_NODES:,})")
    add_shape_args(p)
    p.set_defaults(func=run)


def _metadata_lines(model: str) -> list[str]:
    """What the exporter wrote about the input (and the preset it suggests): printed on stderr once the report is
    written (``run``), never before an error that ends the run."""
    from pathlib import Path

    from npuready.inputs.budget import MAX_MODEL_BYTES

    path = Path(model)
    if path.suffix == ".onnx" and path.is_file() and path.stat().st_size <= MAX_MODEL_BYTES:  # never read a huge
        # file here: the report's own loading refuses it from its size with one line
        from npuready.preprocess.metadata import read_metadata

        try:
            return list(read_metadata(model).lines())
        except Exception:  # an unreadable file: the report's own loading says why, with exit 2
            return []
    return []


def _progress(msg: str) -> None:
    """A progress line on stderr when it is a terminal (as deploy, export and intake log); off a terminal
    (CI logs, pipes, tests) nothing, so a run that ends with exit 2 after the work prints only its error."""
    if sys.stderr.isatty():
        from npuready.terminal import printable  # names from the model never drive the terminal

        print(f"report: {printable(msg)}", file=sys.stderr)


def _named(value, path: str, name: str):
    """``value`` with every string equal to the model's path given as its file name: the report names nothing
    of this machine, and two runs on copies of one model write the same files."""
    if isinstance(value, dict):
        return {k: _named(v, path, name) for k, v in value.items()}
    if isinstance(value, list):
        return [_named(v, path, name) for v in value]
    return name if value == path else value


def run(args: argparse.Namespace) -> int:
    from npuready.commands.preset_arg import preset_from
    from npuready.commands.shape_args import pins_from
    from npuready.report import ReportRequest, build_report, report_failed, write_report
    from npuready.report.ladder_line import ladder_line
    from npuready.report.prepared import prepare
    from npuready.report.request import DEFAULT_TARGETS
    from npuready.report.write import check_out
    from npuready.terminal import printable  # names from the model never drive the terminal

    preset_from(args)  # a bad --preset is refused before lint/partition/cost run
    check_out(args.out)  # a device, FIFO, file or foreign folder as --out: refused before the work
    request = ReportRequest(model=args.model, targets=tuple(args.targets or DEFAULT_TARGETS),
                            input_shapes=pins_from(args).shapes, batch=args.batch, edges=args.edges,
                            calibration=args.calib, preset=args.preset,
                            stages=tuple(s.strip() for s in args.stages.split(",") if s.strip()), images=args.images,
                            task=args.task, max_report_nodes=args.max_report_nodes)
    prepared = prepare(request)  # model, every --target and --calib checked before any stage or stderr line
    notes = _metadata_lines(args.model)
    result = build_report(request, progress=_progress, prepared=prepared)
    if prepared.source.recipe is None:  # the model's path on this machine becomes its file name (as model.file)
        result = _named(result, str(prepared.source.path), prepared.source.path.name)
    path = write_report(result, args.out, inline=args.inline, model_explorer=args.model_explorer)
    # written: now the notes (before it, a failed write would have printed them ahead of its one error line)
    if args.model_explorer:
        notes.append(f"Model Explorer node data in {path.parent / 'model-explorer'}")
    if (imported := result["model"].get("imported")) and imported["rewrites"]:
        notes.append(imported["summary"])
    if "summarised" in result:
        notes.append(f"summarised: {result['summarised']['note']}")
    for line in notes:
        print(f"report: {printable(line)}", file=sys.stderr)
    checks = result["checks"]
    print(printable(f"{path}: {result['model']['label']}, {result['graph']['node_count']} nodes, "
                    f"targets {', '.join(request.targets)}; sanity checks {'ok' if checks['all_ok'] else 'FAILED'}; "
                    f"page {path.parent / 'report.html'}"))
    last = ladder_line(result.get("ladder"))
    if last:  # the verdict behind the exit code, last
        print(printable(last))
    return 1 if report_failed(result) else 0
