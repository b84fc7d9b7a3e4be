"""Export a zoo model to static-shape ONNX (opset 17, batch 1, BatchNorm folded by eval-mode export)."""
from __future__ import annotations

import io
from pathlib import Path

import torch
from torch import nn

from npuready.atomic import write_bytes
from npuready.models.zoo import ZooSpec

OPSET = 17


def output_names(spec: ZooSpec) -> list[str]:
    return ["box_dist", "cls_logits"] if spec.kind == "detector" else ["logits"]


def export_bytes(model: nn.Module, input_shape: tuple[int, ...], outputs: list[str]) -> bytes:
    """The zoo's export recipe for any module: eval mode, static ``input_shape``, opset 17, BN folded."""
    model = model.eval()
    buffer = io.BytesIO()
    with torch.no_grad():
        torch.onnx.export(model, (torch.zeros(input_shape),), buffer, dynamo=False, opset_version=OPSET,
                          input_names=["input"], output_names=outputs, do_constant_folding=True,
                          training=torch.onnx.TrainingMode.EVAL)
    return buffer.getvalue()


def onnx_bytes(model: nn.Module, spec: ZooSpec) -> bytes:
    """The ONNX serialisation of ``model`` in eval mode with the zoo's static input shape."""
    return export_bytes(model, spec.input_shape, output_names(spec))


def export_onnx(model: nn.Module, spec: ZooSpec, path: str | Path) -> Path:
    return write_bytes(path, onnx_bytes(model, spec))


def save_checkpoint(model: nn.Module, path: str | Path) -> Path:
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    return write_bytes(path, buffer.getvalue())
