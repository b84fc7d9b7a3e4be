"""`npuready verify FLOAT.onnx QDQ.onnx`: parity ladder float → fake-quant → integer, with a deployment gate."""
from __future__ import annotations

import argparse


def add_task_args(p: argparse.ArgumentParser, limit: bool = True) -> None:
    """``--task`` (verify, deploy and report share it) and, with ``limit``, ``--task-limit``."""
    from npuready.verify.tasks import NAMES

    p.add_argument("--task", choices=list(NAMES), default=None,
                   help="how the gate judges the outputs: classification = top-1 agreement; dense = IoU of the "
                        "thresholded map; sequence = CTC greedy-decoded string equality; detection = matched boxes "
                        "after the head's decode (precision/recall); regression = SNR in dB — limits and details in "
                        "docs/verify-tasks.md (default: inferred from the float model's output shapes; the choice "
                        "is printed)")
    if not limit:
        return
    p.add_argument("--task-limit", type=float, default=None, metavar="X",
                   help="gate: the task metric's limit for tasks other than classification (default: the metric's "
                        "stated limit; classification uses --min-agreement)")


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.preset_arg import add_preset_arg
    from npuready.commands.shape_args import add_shape_args

    p = sub.add_parser(
        "verify", help="parity ladder float → fake-quant → integer engine, with a deployment gate",
        description="Run the float model (onnxruntime), its QDQ model as fake-quant (onnxruntime, no fusion) and "
                    "the exported integer graph (NumPy or C++ engine) on a dataset. Reports accuracy of each "
                    "rung, top-1 agreement, per-tensor int8 code mismatch (propagated and local: each op fed "
                    "identical inputs), the first op diverging by more than 1 LSB, and a plain-words explanation. "
                    "All numbers are measured here on CPU, not on NPU silicon.",
        epilog="Exit codes: 0 gate passed, 1 gate failed (a quantised rung's agreement below --min-agreement or "
               "accuracy drop above --max-drop, another task's metric below its limit, or a rung that cannot run: a "
               "stored scale or zero point the integer export refuses, a QDQ file onnxruntime cannot run), 2 unusable "
               "input or usage error.")
    p.add_argument("float_model", metavar="FLOAT.onnx", help="the float model")
    p.add_argument("qdq_model", metavar="QDQ.onnx", help="its quantised QDQ model (e.g. from 'npuready quantize')")
    p.add_argument("--data", default="fashion-mnist:test",
                   help="inputs: fashion-mnist:test|fashion-mnist:train, a calibration folder or an .npz with x[,y] "
                        "a folder of images with --preset (default: fashion-mnist:test)")
    add_preset_arg(p, "turns a --data folder of images into model inputs")
    p.add_argument("--images", type=int, default=1000, help="number of images (default: 1000)")
    p.add_argument("--engine", choices=["numpy", "cpp"], default="numpy", help="integer engine (default: numpy)")
    p.add_argument("--rounding", default="tflite-ref",
                   help="rounding profile or rounding: tflite-ref, double, single (default: tflite-ref)")
    p.add_argument("--min-agreement", type=float, default=0.99,
                   help="gate: minimum top-1 agreement with float of each quantised rung, fake-quant (the QDQ file as "
                        "stored) and integer (default: 0.99)")
    p.add_argument("--max-drop", type=float, default=0.01,
                   help="gate: maximum accuracy drop float → fake-quant and float → integer, absolute (default: 0.01)")
    add_task_args(p)
    p.add_argument("--format", "-f", choices=["text", "json"], default="text", help="report format (default: text)")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="write the report to FILE (atomically) instead of stdout; - is stdout; a symlink is written "
                        "through to its file; a device, FIFO or folder is refused")
    p.add_argument("--litert", action="store_true",
                   help="also cross-check every int8 tensor against LiteRT's reference kernels (BUILTIN_REF) on the "
                        "same images (needs the 'validate' extra: ai-edge-litert); with --require-bitexact any "
                        "mismatch fails the gate")
    p.add_argument("--require-bitexact", action="store_true",
                   help="gate: fail (exit 1) when any tensor differs from LiteRT's reference kernels (implies "
                        "--litert)")
    p.add_argument("--save-integer-graph", metavar="FILE.npz",
                   help="also write the exported integer graph (int8 weights, int32 bias, M0/shift, zero points, "
                        "declared rounding per op) to FILE.npz")
    add_shape_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from npuready.commands.output import emit, progress
    from npuready.commands.in_file import in_file
    from npuready.errors import InputError
    from npuready.commands.preset_arg import preset_from
    from npuready.commands.shape_args import load_pinned
    from npuready.quant.inputs import load_inputs

    spec = preset_from(args)  # before any model is loaded
    from npuready.verify.data_check import check_evaluation, output_classes
    from npuready.verify.gate import GateLimits, gate
    from npuready.verify.ladder import run_ladder
    from npuready.verify.render import to_json, to_text

    if args.images < 1:
        raise InputError(f"--images {args.images}: must be at least 1")
    if not 0 <= args.min_agreement <= 1 or not 0 <= args.max_drop <= 1:
        raise InputError("--min-agreement and --max-drop: must be fractions in [0, 1]")
    fm, qm = load_pinned(args.float_model, args), load_pinned(args.qdq_model, args)
    shape = tuple(d if isinstance(d, int) else 1 for d in (fm.inputs[0].shape or ()))
    data = load_inputs(args.data, args.images, shape, spec=spec)
    check_evaluation(data.x, data.labels, output_classes(fm.model), args.data)
    check_litert = args.litert or args.require_bitexact
    if check_litert:
        _require_litert()  # before minutes of work
    with in_file(args.qdq_model):  # errors about a node name the QDQ file it is in
        result = run_ladder(fm.model, qm.model, data.x, data.labels, rounding=args.rounding, engine=args.engine,
                            model_name=Path(args.qdq_model).name, progress=progress(), task=args.task)
        exportable = "integer" not in result.refused  # else the gate fails on the refusal (exit 1) and says why
        if exportable and (args.save_integer_graph or check_litert):  # one export serves both
            from npuready.engine import intgraph
            from npuready.engine.export import export_integer_graph

            graph = export_integer_graph(qm.model, rounding=args.rounding)
        litert = _litert_check(qm.model, data.x, graph, args) if check_litert and exportable else None
    if args.save_integer_graph and exportable:
        intgraph.save(graph, args.save_integer_graph)
    limits = GateLimits(args.min_agreement, args.max_drop, args.task_limit)
    verdict = gate(result, limits, litert, require_bitexact=args.require_bitexact)
    text = (to_json(result, verdict, limits, litert) if args.format == "json"
            else to_text(result, verdict, limits, litert))
    emit(text, args.output)
    return verdict.exit_code


def _require_litert() -> None:
    from npuready.errors import InputError

    try:
        import ai_edge_litert  # noqa: F401
    except ImportError:
        raise InputError("--litert: ai-edge-litert is not installed; pip install 'npuready[validate]'") from None


def _litert_check(qdq, x, graph, args) -> dict:
    from npuready.engine import cpp_engine, numpy_engine
    from npuready.commands.output import progress
    from npuready.verify.litert_oracle import compare_with_litert

    engine = {"numpy": numpy_engine, "cpp": cpp_engine}[args.engine]
    report = compare_with_litert(qdq, x, graph, engine=engine, optimized=False, progress=progress())
    return report.summary()
