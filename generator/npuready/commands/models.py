"""`npuready models list|export|macs`: real architectures built offline by timm, torchvision and ultralytics
(random-initialised weights), exported to ONNX. Needs the corpus extra; torch/timm load only when run."""
from __future__ import annotations

import argparse

_RANDOM = ("Weights are RANDOM-INITIALISED (nothing is downloaded): the graphs are the libraries' real "
           "architectures, any accuracy is meaningless.")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "models", help="list / export library-built architectures (timm, torchvision, ultralytics; random weights)",
        description="Build real architectures from the libraries that define them (timm, torchvision, "
                    "ultralytics), offline, and export them to static-shape ONNX (opset 17, batch 1 unless "
                    "asked). " + _RANDOM + " Needs the corpus extra: pip install 'npuready[corpus]'.",
        epilog="Exit codes: 0 ok, 2 unusable input (unknown model name, missing corpus extra, bad size).")
    verbs = p.add_subparsers(dest="models_verb", metavar="ACTION", parser_class=type(p))
    ls = verbs.add_parser("list", help="list the recipes (name, library, constructor, input shape, task)",
                          description="List the library-built architectures npuready knows. " + _RANDOM)
    ls.set_defaults(func=run_list)
    ex = verbs.add_parser("export", help="export one architecture to ONNX",
                          description="Export one library-built architecture to ONNX with "
                                      "torch.onnx.export(dynamo=False). " + _RANDOM)
    ex.add_argument("name", help="recipe name (see 'npuready models list')")
    ex.add_argument("--out", "-o", required=True, help="where to write the .onnx file")
    group = ex.add_mutually_exclusive_group()
    group.add_argument("--batch", type=int, default=1, help="static batch size (default 1)")
    group.add_argument("--dynamic-batch", action="store_true", help="export the batch axis as symbolic 'batch'")
    ex.add_argument("--image-size", type=int, help="square input size (default: the recipe's)")
    ex.add_argument("--opset", type=int, default=17, help="ONNX opset (default 17)")
    ex.set_defaults(func=run_export, output_files=("out",))  # a file, checked before the work
    mc = verbs.add_parser("macs", help="count MACs with torch's own FLOP counter (independent of the cost model)",
                          description="Count multiply-accumulates of one forward pass with "
                                      "torch.utils.flop_counter (MACs = FLOPs/2 for conv, matmul, attention).")
    mc.add_argument("name", help="recipe name")
    mc.add_argument("--image-size", type=int, help="square input size (default: the recipe's)")
    mc.set_defaults(func=run_macs)
    p.set_defaults(func=lambda args: p.print_help() or 2)


def run_list(args: argparse.Namespace) -> int:
    from npuready.models.library.recipes import RECIPES

    for r in RECIPES.values():
        shape = "x".join(map(str, r.input_shape))
        print(f"{r.name}\t{r.library}\t{r.constructor}\t{shape}\t{r.task}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    from npuready.models.library.export import export_onnx

    path = export_onnx(args.name, args.out, batch=args.batch, dynamic_batch=args.dynamic_batch,
                       opset=args.opset, image_size=args.image_size)
    print(f"{path}: {args.name} exported (random-initialised weights)")
    return 0


def run_macs(args: argparse.Namespace) -> int:
    from npuready.models.library.macs import count_macs

    count = count_macs(args.name, image_size=args.image_size)
    print(f"{count.name}\t{'x'.join(map(str, count.input_shape))}\t{count.macs} MACs (torch FlopCounterMode)")
    return 0
