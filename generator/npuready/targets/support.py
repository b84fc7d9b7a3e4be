"""What a target runs, node by node: the one reading of a target's declarations.

``node_support(graph, node, target) -> Support`` answers "does ``target`` run this node on the NPU,
and how?" from the target file: ``[activations]`` (fused / lut / host), ``[norms]`` (native / vector /
lowered / host, with ``limits``), ``[resize]`` (a mode per interpolation, plus scale factors and
coordinate transforms for compilers with fixed upscalers) and, for every other op, ``[supported_ops]``.
The lint severity policy (``npuready.lint.policy``), the partition planner's placement and therefore
the cost model all read this function, so they cannot disagree. It rests on the target's declarations
and the ONNX graph's structure and static shapes, not on NPU silicon.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from npuready.graph import Graph, Node
from npuready.targets.gelu_pattern import gelu_members
from npuready.targets.target import NORM_OPS, Target

# Element-wise non-linearities of the ONNX standard that an NPU implements fused or as a lookup table.
# A target may declare more (its [activations] keys count as activations for that target).
ACTIVATION_OPS = frozenset({
    "Relu", "LeakyRelu", "PRelu", "Clip", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh", "Gelu", "Erf",
    "Softmax", "LogSoftmax", "Hardmax", "Elu", "Selu", "Celu", "Softplus", "Softsign", "Mish",
    "ThresholdedRelu", "Shrink", "Exp", "Swish",
})
RUNNING_ACTIVATION_MODES = ("fused", "lut", "lowered")
RUNTIME_NORMS = frozenset(NORM_OPS) - {"BatchNormalization"}  # statistics computed at run time: never fold
FOLD_HOSTS = frozenset({"Conv", "ConvTranspose", "Gemm"})
RESIZE_OPS = ("Resize", "Upsample")
# op -> default interpolation mode when the attribute is absent (onnx operator specs)
DEFAULT_INTERPOLATION = {"Resize": "nearest", "Upsample": "nearest", "GridSample": "linear", "RoiAlign": "linear"}
HALF_PIXEL = frozenset({"half_pixel", "pytorch_half_pixel", "tf_half_pixel_for_nn"})
# Phrase for a mode when the target file has no [via] line for the op
_DEFAULT_VIA = {"fused": "fused into the producing layer's output stage", "lut": "as a lookup table",
                "native": "natively", "vector": "on the vector unit", "lowered": "through its compiler's lowering",
                "folded": "folded into the preceding layer's weights"}


@dataclass(frozen=True)
class Support:
    """Whether ``target`` runs a node on the NPU (``runs``), in which mode, and one phrase saying how
    (when it runs: "runs on T …") or why not (when it does not)."""

    runs: bool
    mode: str  # fused | lut | native | vector | lowered | folded | host | absent | unsupported
    how: str
    depends_on: str = ""  # a node that must run on the NPU too (the Erf of a GELU pattern this node belongs to)


def via(target: Target, key: str, mode: str) -> str:
    """The target's own phrase for how it runs ``key`` (an op, or "Resize.<interpolation>")."""
    return target.via.get(key) or _DEFAULT_VIA.get(mode, mode)


def _runs(target: Target, key: str, mode: str, what: str) -> Support:
    return Support(True, mode, f"{what} runs on {target.name} {via(target, key, mode)}")


def _not(target: Target, mode: str, why: str) -> Support:
    return Support(False, mode, f"{target.name} cannot run it: {why}")


def interpolation(node: Node) -> str:
    """nearest | linear | cubic for Resize/Upsample/GridSample/RoiAlign."""
    if node.op_type == "RoiAlign":
        return "linear"  # RoiAlign always samples bilinearly; its 'mode' is avg/max pooling of the samples
    mode = str(node.attr("mode", DEFAULT_INTERPOLATION[node.op_type])).lower()
    return {"bilinear": "linear", "trilinear": "linear", "bicubic": "cubic"}.get(mode, mode)


def bn_fold_problem(graph: Graph, node: Node) -> str | None:
    """Why a BatchNormalization does not fold into the weights of the layer before it, or None."""
    if node.attr("training_mode", 0):
        return "BatchNormalization in training mode computes batch statistics at run time"
    x = node.inputs[0] if node.inputs else ""
    producer = graph.producers.get(x)
    if producer is None or producer.op_type not in FOLD_HOSTS or not producer.is_standard:
        what = producer.op_type if producer is not None else "a graph input"
        return f"BatchNormalization follows {what}, not Conv/ConvTranspose/Gemm, so it cannot fold into weights"
    if len(graph.consumers.get(x, ())) > 1 or x in graph.output_names:
        return (f"the output of {producer.op_type} '{producer.name}' is also used elsewhere, "
                "so the BN cannot fold into it")
    return None


def node_support(graph: Graph, node: Node, target: Target) -> Support:
    """How ``target`` runs ``node`` (see the module docstring)."""
    op = node.op_type
    if not node.is_standard:
        return _not(target, "unsupported", f"custom domain '{node.domain}'")
    if op in ACTIVATION_OPS or target.activation_mode(op) is not None:
        return _activation(graph, node, target)
    if op in NORM_OPS:
        return _norm(graph, node, target)
    if op in RESIZE_OPS:
        return _resize(graph, node, target)
    if (erf := gelu_members(graph).get(node.name)) and not target.runs_on_npu(op):
        gelu = _gelu(target, erf, node.name)
        if gelu is not None:
            return gelu
    if target.runs_on_npu(op):
        return Support(True, "native", f"{op} runs on {target.name} (in its op table)")
    return Support(False, "unsupported", f"{op} not supported by target {target.name}")


def _gelu(target: Target, erf: str, node: str) -> Support | None:
    mode = target.activation_mode("Gelu")
    if mode not in RUNNING_ACTIVATION_MODES:
        return None
    what = "the pattern" if erf == node else f"the exact-GELU pattern around Erf '{erf}', which"
    return Support(True, mode, f"{'this Erf is the core of an exact-GELU pattern; ' if erf == node else 'part of '}"
                               f"{what} runs on {target.name} {via(target, 'Gelu', mode)}", depends_on=erf)


def _activation(graph: Graph, node: Node, target: Target) -> Support:
    op = node.op_type
    mode = target.activation_mode(op)
    if mode in RUNNING_ACTIVATION_MODES:
        return _runs(target, op, mode, op)
    if (erf := gelu_members(graph).get(node.name)) and (gelu := _gelu(target, erf, node.name)) is not None:
        return gelu
    where = "marked 'host' (runs on the CPU)" if mode == "host" else "not in its activation allowlist"
    return _not(target, mode or "absent", f"activation {op} is {where}")


def _norm(graph: Graph, node: Node, target: Target) -> Support:
    op = node.op_type
    if op == "BatchNormalization":
        problem = bn_fold_problem(graph, node)
        if problem is None:
            return _runs(target, "BatchNormalization.folded", "folded", op)
        if node.attr("training_mode", 0):
            return _not(target, "host", "batch statistics are computed at run time")
    mode = target.norm_mode(op)
    if mode == "host":
        return _not(target, "host", f"its [norms] table marks {op} 'host'")
    if op != "BatchNormalization" and (limit := _norm_limit(graph, node, target)):
        return _not(target, "host", limit)
    return _runs(target, op, mode, op if op != "BatchNormalization" else "this BatchNormalization")


def _norm_limit(graph: Graph, node: Node, target: Target) -> str | None:
    """A lowered run-time norm over one axis as a MEAN: Vela's limits on the reduced axis (``limits``)."""
    if target.norm_axis_max is None or target.norm_mode(node.op_type) != "lowered":
        return None
    shape = graph.info(node.inputs[0]).shape if node.inputs else None
    if shape is None or not all(isinstance(d, int) for d in shape):
        return "the normalised axis is not static"
    axis = int(node.attr("axis", -1))
    axis = axis + len(shape) if axis < 0 else axis
    if node.op_type != "LayerNormalization" or axis != len(shape) - 1:
        return f"the lowering handles a LayerNormalization over the last axis only (axis {axis} of rank {len(shape)})"
    if shape[-1] > target.norm_axis_max:
        return f"normalised axis {shape[-1]} exceeds the reduction limit {target.norm_axis_max}"
    if len(shape) >= 4 and all(d > 1 for d in shape[-3:]):
        return f"a reduction over depth needs one of h, w, c to be 1 (shape {list(shape)})"
    return None


def _transform(node: Node) -> str:
    if node.op_type == "Upsample" or node.attr("coordinate_transformation_mode") is None and len(node.inputs) < 3:
        return "asymmetric"  # Upsample and opset-10 Resize (inputs x, scales) use asymmetric coordinates
    value = node.attr("coordinate_transformation_mode", "half_pixel")
    return value.decode() if isinstance(value, bytes) else str(value)


def _resize(graph: Graph, node: Node, target: Target) -> Support:
    interp = interpolation(node)
    key = f"Resize.{interp}"
    mode = target.resize.mode(interp)
    if mode == "host":
        return _not(target, "host", f"no {interp} resize in its [resize] table")
    allowed = target.resize.coordinate_transforms
    transform = _transform(node)
    if allowed is not None and transform not in allowed:
        return _not(target, "host", f"coordinate_transformation_mode '{transform}' has no equivalent on it")
    if target.resize.scales is not None and (limit := _scale_limit(graph, node, target, interp, transform)):
        return _not(target, "host", limit)
    return _runs(target, key, mode, f"{interp} {node.op_type}")


def _scale_limit(graph: Graph, node: Node, target: Target, interp: str, transform: str) -> str | None:
    """Vela's resize constraints (tflite_supported_operators.py constraint_resize and
    constraint_resizebi_half_pixel_centers_dims), on NCHW shapes; None when the node meets them."""
    x = graph.info(node.inputs[0]).shape if node.inputs else None
    y = graph.info(node.outputs[0]).shape if node.outputs else None
    if not (x and y and len(x) == 4 and len(y) == 4 and all(isinstance(d, int) for d in (*x, *y))):
        return "scale factors unknown (the input and output are not static 4-D tensors)"
    if x[:2] != y[:2]:
        return f"it resizes batch or channel axes ({list(x)} -> {list(y)})"
    ih, iw, oh, ow = x[2], x[3], y[2], y[3]
    text = f"{ih}x{iw} -> {oh}x{ow} ({transform})"
    half = target.resize.half_pixel_scales  # checked on its own, even for an identity resize (as Vela does)
    if interp == "linear" and transform in HALF_PIXEL and half is not None and not (ih == 1 and iw == 1) and not (
            oh / ih == ow / iw and oh / ih in half):
        return f"{text}: with half-pixel centres only {'/'.join(f'{s}x' for s in half)} (or a 1x1 input)"
    if (ih == 1 and iw == 1) or tuple(x) == tuple(y):
        return None
    align = transform == "align_corners"
    fh = (oh - 1) / (ih - 1) if align and ih != 1 else (1 if align else oh / ih)
    fw = (ow - 1) / (iw - 1) if align and iw != 1 else (1 if align else ow / iw)
    factors = (1, *target.resize.scales)
    text = f"{text} is a {_num(fh)}x/{_num(fw)}x scale"
    if fh not in factors or fw not in factors:
        return f"{text}; allowed: equal H and W scales of {'/'.join(f'{s}x' for s in target.resize.scales)}"
    valid = fh == fw if (oh != 1 and ow != 1) else (fh == ih == 1 or fw == iw == 1)
    return None if valid else f"{text}; H and W must scale equally"


def _num(v: float) -> str:
    return str(int(v)) if math.isclose(v, round(v)) else f"{v:.3g}"
