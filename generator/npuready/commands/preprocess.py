"""`npuready preprocess show|inspect|apply|calib|diagnose|fuse`: the input-format contract."""
from __future__ import annotations

import argparse
import sys

SPEC_HELP = "preset name (see 'npuready preprocess show'), zoo:<model> (from zoo/zoo.json) or a spec JSON file"


def register(sub: argparse._SubParsersAction) -> None:
    from npuready.commands.shape_args import add_shape_args

    p = sub.add_parser(
        "preprocess", help="input-format presets, calibration sets, mismatch doctor, normalisation fusion",
        description="One declarative input spec (colour order, dtype, layout, resize, crop, letterbox, "
                    "scale, mean/std) used by both calibration-data generation and inference.",
        epilog="Exit codes: 0 ok (diagnose: tensors match), 1 diagnose found a mismatch, 2 unusable input.")
    verbs = p.add_subparsers(dest="action", metavar="ACTION")

    s = verbs.add_parser("show", help="print a preset's pipeline, input and calibration variant",
                         description="Print the ordered pipeline of a preset (all presets when none is given).",
                         epilog="Exit codes: 0 ok, 2 unknown preset or model mismatch.")
    s.add_argument("spec", nargs="?", metavar="PRESET", help=SPEC_HELP)
    s.add_argument("--model", metavar="MODEL.onnx", help="bind the spec to this model's image input (size check)")
    s.add_argument("--format", "-f", choices=["text", "json"], default="text", help="output format (default: text)")
    add_shape_args(s)
    s.set_defaults(func=run_show)

    i = verbs.add_parser("inspect", help="show what the exporter wrote about the input (metadata_props)",
                         description="Read the model's ONNX metadata_props (ultralytics' imgsz/stride/names, "
                                     "PaddleOCR's character dictionary, Windows ML pixel format, mean/std, ...), "
                                     "show the keys that describe its input and, where they name an input format, "
                                     "the --preset (and --input-shape pin) to use.",
                         epilog="Exit codes: 0 ok, 2 unusable input.")
    i.add_argument("model", metavar="MODEL.onnx")
    i.add_argument("--format", "-f", choices=["text", "json"], default="text", help="output format (default: text)")
    i.set_defaults(func=run_inspect)

    a = verbs.add_parser("apply", help="preprocess one image into a .npy model input",
                         description="Run the spec on one image file and save the model-input tensor "
                                     "(the same function the calibration builder uses).",
                         epilog="Exit codes: 0 ok, 2 unusable input.")
    a.add_argument("image", help="image file (decoded with Pillow as RGB)")
    a.add_argument("--preset", "--spec", dest="spec", required=True, help=SPEC_HELP)
    a.add_argument("--model", metavar="MODEL.onnx", help="take/check the image size from this model")
    a.add_argument("--output", "-o", required=True, metavar="FILE.npy", help="where to write the tensor")
    add_shape_args(a)
    a.set_defaults(func=run_apply)

    c = verbs.add_parser("calib", help="build a stratified calibration set (.npy files + manifest.json)",
                         description="Sample a stratified, seeded calibration set, preprocess it with the spec and "
                                     "write it in the layout the compile mode needs: 'body' (only the NPU body is "
                                     "compiled: tensors match the body input) or 'offload' (CPU offload: tensors "
                                     "match the original model input).",
                         epilog="Exit codes: 0 written, 2 unusable input.")
    c.add_argument("--preset", "--spec", dest="spec", required=True, help=SPEC_HELP)
    src = c.add_mutually_exclusive_group()
    src.add_argument("--dataset", default="fashion-mnist",
                     choices=["photos", "fashion-mnist", "fashion-mnist-full"],
                     help="image source (default: fashion-mnist, the committed subset)")
    src.add_argument("--images", metavar="DIR", help="folder of images; the first sub-folder names the class")
    c.add_argument("--split", default="train", help="dataset split (default: train)")
    c.add_argument("--n", type=int, default=100, help="number of samples (default: 100)")
    c.add_argument("--seed", type=int, default=0, help="sampling seed (default: 0)")
    c.add_argument("--mode", choices=["body", "offload"], default="body",
                   help="compile mode (default: body)")
    c.add_argument("--model", metavar="MODEL.onnx", help="bind the spec to this model (size check, body input)")
    c.add_argument("--body-input", metavar="TENSOR",
                   help="mode body: the NPU body's input tensor (default with --model: the partition planner's "
                        "first body input); the CPU head is run with onnxruntime")
    c.add_argument("--target", "-t", default=None,
                   help="NPU target for the partition planner (mode body with --model; default: edge-10)")
    c.add_argument("--body-layout", choices=["HWC", "NHWC", "NCHW"], default="HWC",
                   help="mode body without --body-input: per-sample layout (default: HWC)")
    c.add_argument("--out", required=True, metavar="DIR", help="output folder")
    add_shape_args(c)
    c.set_defaults(func=run_calib)

    d = verbs.add_parser("diagnose", help="name the mismatch between a runtime and a calibration tensor",
                         description="Compare a saved runtime input tensor with the calibration tensor of the same "
                                     "image and name each mismatch: layout, channels, letterbox size, letterbox "
                                     "missing, crop, resize, channel order (RGB/BGR), /255, normalisation.",
                         epilog="Exit codes: 0 match, 1 mismatch found (one line per kind), 2 bad input.")
    d.add_argument("--runtime", required=True, metavar="A.npy", help="tensor the runtime fed the model")
    d.add_argument("--calib", required=True, metavar="B.npy", help="calibration tensor of the same image")
    d.add_argument("--preset", "--spec", dest="spec", help=f"optional intended spec: {SPEC_HELP}")
    d.add_argument("--format", "-f", choices=["text", "json"], default="text", help="output format (default: text)")
    d.set_defaults(func=run_diagnose)

    f = verbs.add_parser("fuse", help="fold scale/mean/std into the first Conv (model takes raw pixels)",
                         description="Rewrite an ONNX model so its image input takes raw pixels: scale, mean and "
                                     "std are folded into the first Conv ('fold', no padding) or kept as one "
                                     "per-channel Sub in front of it ('subtract', exact when the Conv pads).",
                         epilog="Exit codes: 0 written, 2 unusable input.")
    f.add_argument("model", metavar="MODEL.onnx")
    f.add_argument("--preset", "--spec", dest="spec", required=True, help=SPEC_HELP)
    f.add_argument("--strategy", choices=["auto", "fold", "subtract"], default="auto",
                   help="auto: fold without padding, subtract with (default: auto)")
    f.add_argument("--input-dtype", choices=["uint8", "float32"], default="uint8",
                   help="new input type: uint8 (adds a Cast) or float32 0..255 (default: uint8)")
    f.add_argument("--output", "-o", required=True, metavar="OUT.onnx")
    f.set_defaults(func=run_fuse)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _spec(args: argparse.Namespace):
    """The spec, bound to --model (its shape pinned by --input-shape/--batch) when one is given."""
    from npuready.preprocess import bind_to_model, resolve_spec

    spec = resolve_spec(args.spec)
    model = getattr(args, "model", None)
    if not model:
        return spec
    from npuready.commands.shape_args import load_pinned

    return bind_to_model(spec, load_pinned(model, args).model)


def run_show(args: argparse.Namespace) -> int:
    from npuready.atomic import dumps_json
    from npuready.preprocess import PRESETS
    from npuready.preprocess.render import calibration_variant, spec_text, steps

    specs = [_spec(args)] if args.spec else list(PRESETS.values())
    if args.format == "json":
        data = [dict(s.to_dict(), steps=steps(s), value_range=s.value_range, calibration=calibration_variant(s))
                for s in specs]
        sys.stdout.write(dumps_json(data[0] if args.spec else data))
    else:
        sys.stdout.write("\n".join(spec_text(s) for s in specs))
    return 0


def metadata_of(model: str):
    """The model's metadata, or InputError (exit 2) naming the file."""
    from pathlib import Path

    from npuready.errors import InputError
    from npuready.preprocess.metadata import read_metadata

    if not Path(model).is_file():
        raise InputError(f"{model}: no such ONNX file")
    try:
        return read_metadata(model)
    except Exception as exc:  # onnx's DecodeError and friends: not a readable ONNX file
        raise InputError(f"{model}: not a readable ONNX file ({type(exc).__name__})") from None


def run_inspect(args: argparse.Namespace) -> int:
    from npuready.atomic import dumps_json

    meta = metadata_of(args.model)
    if args.format == "json":
        sys.stdout.write(dumps_json(meta.to_dict()))
    else:
        lines = meta.lines() or ["model metadata: none that describes the input (producer "
                                 f"{meta.producer or 'unknown'})"]
        sys.stdout.write("\n".join(lines) + "\n")
    return 0


def run_apply(args: argparse.Namespace) -> int:
    import io

    import numpy as np

    from npuready.atomic import write_bytes
    from npuready.preprocess import apply

    x = apply(_spec(args), args.image)
    buf = io.BytesIO()
    np.save(buf, x, allow_pickle=False)
    write_bytes(args.output, buf.getvalue())
    print(f"{args.output}: {x.dtype} {list(x.shape)}")
    return 0


def run_calib(args: argparse.Namespace) -> int:
    from npuready.preprocess.calibration import build_calibration_set
    from npuready.preprocess.sources import dataset, image_folder

    spec = _spec(args)  # bound to the pinned model before any image is read
    images, labels, source = image_folder(args.images) if args.images else dataset(args.dataset, args.split)

    from functools import partial

    from npuready.commands.output import progress

    bar = partial(progress(), description="calibration set")

    from npuready.targets import DEFAULT_TARGET

    target = (args.target or DEFAULT_TARGET) if args.model else None
    cs = build_calibration_set(images, labels, spec, args.out, n=args.n, seed=args.seed, mode=args.mode,
                               model=args.model, body_input=args.body_input, body_layout=args.body_layout,
                               source=source, target=target, progress=bar)
    classes = len([k for k in cs.manifest["per_class"] if k != "unlabelled"])
    print(f"{cs.folder}: {len(cs.files)} tensors {cs.dtype} {list(cs.shape)} ({cs.layout}, mode {args.mode}, "
          f"{classes} classes, seed {args.seed}) + manifest.json")
    return 0


def _load_npy(path: str, what: str):
    from npuready.inputs.npy import read_npy

    return read_npy(path, f"{what} {path}")


def run_diagnose(args: argparse.Namespace) -> int:
    from npuready.atomic import dumps_json
    from npuready.preprocess import resolve_spec
    from npuready.preprocess.doctor import diagnose
    from npuready.preprocess.render import diagnosis_text

    spec = resolve_spec(args.spec) if args.spec else None
    d = diagnose(_load_npy(args.runtime, "runtime tensor"), _load_npy(args.calib, "calibration tensor"), spec)
    sys.stdout.write(dumps_json(d.to_dict()) if args.format == "json" else diagnosis_text(d))
    return 0 if d.matched else 1


def run_fuse(args: argparse.Namespace) -> int:
    import onnx

    from npuready.atomic import write_bytes
    from npuready.preprocess import resolve_spec
    from npuready.preprocess.fusion import fuse_normalization

    result = fuse_normalization(args.model, resolve_spec(args.spec), strategy=args.strategy,
                                input_dtype=args.input_dtype)
    write_bytes(args.output, result.model.SerializeToString())
    onnx.checker.check_model(args.output)
    print(f"{args.output}: {result.strategy} into {', '.join(result.convs)}; input {result.input_name!r} "
          f"is now {result.input_dtype}; calibrate with {result.calibration}")
    return 0
