"""Export a PyTorch detection/landmark model for an NPU: static shapes, raw logits out.

The module's ``forward`` must return the raw head tensors (logits, distances, landmark offsets);
sigmoid, decoding, NMS and letterbox inverse stay out of the graph and run on the CPU through
``npuready.runtime``. torch is an optional extra and is imported only inside these functions.
"""
from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Sequence

from npuready.errors import InputError
from npuready.graph import families

# post-processing ops that must not appear in an exported "logits out" graph
POSTPROCESS_OPS = families.SELECTION | families.SCORES


def export_logits(module, input_shape: Sequence[int], path: "str | os.PathLike", input_name: str = "images",
                  output_names: Sequence[str] = ("cls_logits", "box_dist"), opset: int = 17,
                  allow_ops: Sequence[str] = ()) -> Path:
    """Export ``module`` with one static input of ``input_shape`` (no dynamic axes) to ``path``.

    Raises ``InputError`` if the exported graph has a non-static input/output or contains a
    post-processing op (Sigmoid, NMS, TopK, ArgMax, Softmax) not listed in ``allow_ops``.
    """
    try:
        import torch
    except ImportError:
        raise InputError("export_logits needs PyTorch: pip install 'npuready[torch]'") from None
    from npuready.graph import load

    if any(not isinstance(d, int) or d <= 0 for d in input_shape):
        raise InputError(f"input shape {list(input_shape)}: every dimension must be a positive integer (static export)")
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    was_training = module.training
    module.eval()
    try:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # the TorchScript exporter is the one without extras
            torch.onnx.export(module, (torch.zeros(*input_shape),), str(out), input_names=[input_name],
                              output_names=list(output_names), opset_version=opset, dynamo=False)
    finally:
        module.train(was_training)
    graph = load(out)
    for t in graph.inputs + graph.outputs:
        if not t.is_static:
            raise InputError(f"{out}: exported tensor '{t.name}' has shape {t.shape_text()}; export with static shapes")
    found = sorted({n.op_type for n in graph.nodes} & (POSTPROCESS_OPS - set(allow_ops)))
    if found:
        raise InputError(f"{out}: the exported graph contains post-processing ops {found}; return logits from "
                         "forward() and apply them with npuready.runtime on the CPU")
    return out
