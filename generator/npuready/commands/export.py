"""`npuready export MODEL --target T --calib DIR --out DIR`: the INT8 artifact a device runtime loads."""
from __future__ import annotations

import argparse
import shlex
import sys


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.deploy import CALIB_HELP
    from npuready.commands.shape_args import add_shape_args
    from npuready.targets import DEFAULT_TARGET

    p = sub.add_parser(
        "export", help="write the INT8 TFLite a device runtime loads (checked against LiteRT, compiled by Vela)",
        description="Quantise a float ONNX model (INT8 post-training quantisation from --calib DIR, as deploy "
                    "does), lower it to INT8 TFLite with the QDQ model's own scales, run that file on LiteRT's "
                    "reference kernels beside npuready's integer engine on held-out inputs (every int8 tensor "
                    "must be identical, or nothing is written), and on an Ethos-U mirror target compile it with "
                    "Vela. --out DIR receives model_qdq.onnx, model_int8.tflite, on Ethos-U targets "
                    "model_int8_vela.tflite (what the Ethos-U runtime loads) with Vela's per-layer and summary "
                    "CSVs, and manifest.json: hashes, tool versions, the input contract, the int8 scale and zero "
                    "point of the input and outputs, the LiteRT check (measured) and the cost (simulated) beside "
                    "Vela's estimate. The folder is written as a set (staged, then renamed). " + CALIB_HELP,
        epilog="Exit codes: 0 exported, 1 refused (an op without an integer kernel or TFLite lowering, the "
               ".tflite differs from the integer engine, or Vela refused it; nothing written), 2 unusable input "
               "or usage error. Cycles are simulated (npuready) or Vela's estimate; the LiteRT check is measured "
               "on CPU, not on NPU silicon.")
    p.add_argument("model", metavar="MODEL", help="float .onnx file, or a zoo name (zoo/<name>.onnx)")
    p.add_argument("--target", "-t", default=DEFAULT_TARGET, help=f"NPU target (default: {DEFAULT_TARGET})")
    p.add_argument("--calib", required=True, metavar="DIR", help="calibration folder (layouts: see above)")
    p.add_argument("--out", "-o", required=True, metavar="DIR",
                   help="output folder: new, empty, or an earlier export (replaced whole)")
    p.add_argument("--calib-images", type=int, default=100, help="calibration sample size (default: 100)")
    p.add_argument("--check-images", type=int, default=20,
                   help="held-out inputs run through LiteRT and the integer engine (default: up to 20)")
    p.add_argument("--preprocess", "--preset", dest="preprocess", metavar="SPEC",
                   help="for image folders: preset name, zoo:<model> or spec JSON (zoo models default to their "
                        "own input contract)")
    p.add_argument("--method", default="minmax", help="activation observer (as quantize; default: minmax)")
    p.add_argument("--per-tensor", action="store_true", help="per-tensor weight scales (default: per-channel)")
    p.add_argument("--layernorm", choices=["decompose", "keep"], default="decompose",
                   help="as quantize: decompose LayerNormalization into int8 ops LiteRT runs (default)")
    p.add_argument("--qnn", action="store_true",
                   help="also run the QDQ model on Qualcomm's HTP backend (onnxruntime-qnn's x86 simulator, "
                        "installed by `make qnn-env`): which nodes it refuses and why, and its outputs beside "
                        "onnxruntime's CPU provider")
    p.add_argument("--rknn", metavar="PLATFORM",
                   help="also compile with Rockchip's RKNN-Toolkit2 for PLATFORM (e.g. rk3588; installed by "
                        "`make rknn-env`): writes model_PLATFORM.rknn, its per-layer NPU/CPU placement and cycle "
                        "estimate, and its simulator's top-1 agreement with float")
    p.add_argument("--no-compile", action="store_true", help="skip the Vela compile on Ethos-U mirror targets")
    p.add_argument("--seed", type=int, default=0, help="calibration sampling seed (default: 0)")
    p.add_argument("--format", "-f", choices=["text", "json"], default="text", help="report format (default: text)")
    add_shape_args(p)
    p.set_defaults(func=run)


def command_line(args: argparse.Namespace) -> str:
    from npuready.commands.shape_args import pin_arguments

    parts = ["npuready", "export", args.model, "--target", args.target, "--calib", args.calib, "--out", args.out]
    for flag, value, default in (("--calib-images", args.calib_images, 100), ("--check-images", args.check_images, 20),
                                 ("--preprocess", args.preprocess, None), ("--method", args.method, "minmax"),
                                 ("--layernorm", args.layernorm, "decompose"), ("--seed", args.seed, 0),
                                 ("--rknn", args.rknn, None)):
        if value != default:
            parts += [flag, str(value)]
    parts += [f for f, on in (("--per-tensor", args.per_tensor), ("--no-compile", args.no_compile),
                              ("--qnn", args.qnn)) if on]
    return shlex.join(parts + pin_arguments(args))


def render_text(result) -> str:
    if not result.exported:
        return f"export of {result.model} on {result.target}: refused at {result.refused_at}: {result.reason}\n"
    m = result.manifest
    c, k = m["check"], m["cost"]
    lines = [f"exported {result.model} for {result.target} → {result.out}"]
    for name, entry in m["files"].items():
        lines.append(f"  {name:26s} {entry['bytes']:>10,} bytes  {entry['what']}")
    lines.append(f"  input {m['input']['name']}: int8, scale {m['input']['scale']:.6g}, zero point "
                 f"{m['input']['zero_point']}")
    lines.append(f"  LiteRT reference kernels (measured): {c['tensors_mismatched']} of {c['tensors_compared']} "
                 f"tensors differ on {c['inputs']} inputs")
    lines.append(f"  cost (simulated): {k['cycles']:,} cycles, {k['macs']:,} MACs")
    if m.get("vela"):
        v = m["vela"]
        lines.append(f"  Vela {v['vela_version']} ({v['accelerator']}): {v['reference_cycles']:,} cycles estimated; "
                     f"npuready {v['ours_cycles']:,} (ratio {v['ratio']:.3f})")
    if m.get("qnn_htp"):
        q = m["qnn_htp"]
        cpu = ", ".join(f"{n['op_type']} {n['node']}" for n in q["cpu_nodes"]) or "none"
        lines.append(f"  Qualcomm HTP (measured, x86 simulator): {q['qnn_partitions']} QNN partition(s); on the CPU: "
                     f"{cpu}; top-1 agreement with onnxruntime CPU {q['top1_agreement_htp_vs_cpu']:.3f} "
                     f"on {q['inputs']} inputs")
    if m.get("rknn"):
        r = m["rknn"]
        cpu = ", ".join(f"{x['op_type']} {x['name']}" for x in r["cpu_layers"]) or "none"
        lines.append(f"  RKNN-Toolkit2 {r['platform']}: {r['npu_layers']} of {r['layers']} layers on the NPU (CPU: "
                     f"{cpu}); {r['total_cycles']:,} cycles estimated; simulator top-1 agreement with float "
                     f"{r['top1_agreement_with_float']:.3f} on {r['inputs']} inputs")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    from npuready.atomic import dumps_json
    from npuready.commands.shape_args import pins_from
    from npuready.errors import InputError
    from npuready.export.stage import Settings, export_model
    from npuready.intake.source import resolve

    if args.calib_images < 1 or args.check_images < 1:
        raise InputError("--calib-images and --check-images: must be at least 1")
    if not 0 <= args.seed < 2**32:
        raise InputError(f"--seed {args.seed}: must be an integer in 0..4294967295")
    from npuready.commands.catalog import OBSERVER_NAMES

    if args.method not in OBSERVER_NAMES:
        raise InputError(f"--method {args.method!r}: not an observer; choose from {', '.join(OBSERVER_NAMES)}")
    src = resolve(args.model)
    preprocess = args.preprocess or (f"zoo:{src.zoo_name}" if src.is_zoo else None)
    settings = Settings(target=args.target, calib_dir=args.calib, out=args.out, calib_images=args.calib_images,
                        check_images=args.check_images, preprocess=preprocess, method=args.method,
                        per_channel=not args.per_tensor, seed=args.seed, compile=not args.no_compile,
                        layernorm=args.layernorm, qnn=args.qnn, rknn=args.rknn,
                        pins=pins_from(args))
    log = (lambda s: print(f"export: {s}", file=sys.stderr)) if sys.stderr.isatty() else (lambda s: None)
    result = export_model(src.path, settings, command_line(args), log=log)
    sys.stdout.write(dumps_json(result.to_dict()) if args.format == "json" else render_text(result))
    if not result.exported:
        print(f"npuready export: refused at {result.refused_at}: {result.reason}", file=sys.stderr)
    return result.exit_code
