"""Normalisation fusion: fold x*scale, -mean, /std into the first Conv so the model takes raw pixels.

With ``x_n = (x*s - m_c) / sd_c = a_c * (x - d_c)``, ``a_c = s / sd_c``, ``d_c = m_c / s``:

* ``fold`` (first Conv has no padding): ``W'[:, c] = a_c W[:, c]``, ``b' = b - sum W'[:, c] d_c``.
  Exact, nothing added but a Cast.
* ``subtract`` (first Conv pads): zero padding of the *normalised* input is padding the raw
  input with ``d_c`` per channel, which one scalar Pad cannot express. So the mean shift stays
  as one per-channel ``Sub`` in front and only ``a_c`` is folded into ``W`` - exact at the
  borders too. ``auto`` picks ``fold`` when no consumer Conv pads (or the mean is zero, e.g. a
  YOLO-style x/255 only), else ``subtract``.

A uint8 input gets a ``Cast`` to the original float type. The fused model must be calibrated
with what it takes: raw uint8 pixels after resize/crop/letterbox, before normalisation
(``apply(spec)`` with ``fuse_normalization=True``) - never with normalised floats.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from npuready.errors import InputError
from npuready.preprocess.spec import PreprocessSpec

STRATEGIES = ("auto", "fold", "subtract")


@dataclass(frozen=True)
class FusionResult:
    model: onnx.ModelProto
    strategy: str                 # "fold" or "subtract" (what was done)
    input_name: str
    input_dtype: str              # "uint8" or "float32"
    convs: tuple[str, ...]        # the Conv nodes whose weights changed
    calibration: str              # which tensors calibrate this model

    def to_dict(self) -> dict:
        return {"strategy": self.strategy, "input": self.input_name, "input_dtype": self.input_dtype,
                "convs": list(self.convs), "calibration": self.calibration}


def _padded(node: onnx.NodeProto) -> bool:
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    auto = attrs.get("auto_pad", b"NOTSET")
    auto = auto.decode() if isinstance(auto, bytes) else auto
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        return True
    return any(int(p) != 0 for p in attrs.get("pads", []))


def _coefficients(spec: PreprocessSpec, channels: int) -> tuple[np.ndarray, np.ndarray]:
    s = float(spec.scale) if spec.scale is not None else 1.0
    mean = np.asarray(spec.mean if spec.mean is not None else (0.0,) * channels, np.float64)
    std = np.asarray(spec.std if spec.std is not None else (1.0,) * channels, np.float64)
    if mean.size != channels:
        raise InputError(f"spec {spec.name!r}: {mean.size} mean/std values for a {channels}-channel input")
    return s / std, mean / s


def fuse_normalization(model: str | os.PathLike | onnx.ModelProto, spec: PreprocessSpec,
                       strategy: str = "auto", input_dtype: str = "uint8",
                       _ignore_padding: bool = False) -> FusionResult:
    """A copy of ``model`` whose image input takes raw pixels (0..255) instead of normalised floats.

    ``_ignore_padding`` folds the mean into the bias even when the Conv pads: wrong at the image
    border; kept only so the norm-fusion experiment can measure that error.
    """
    from npuready.graph import load
    from npuready.preprocess.bind import image_input

    if strategy not in STRATEGIES:
        raise InputError(f"fusion strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}")
    if input_dtype not in ("uint8", "float32"):
        raise InputError(f"fusion input dtype {input_dtype!r}: choose uint8 or float32")
    if spec.scale is None and spec.mean is None:
        raise InputError(f"spec {spec.name!r}: has no scale/mean/std to fuse")
    graph = load(model)
    where = f"model {graph.path or graph.name}"
    inp = image_input(graph.model, spec.image_input)
    if len(inp.shape) != 4 or inp.dtype not in ("float32", "float16", "float64"):
        raise InputError(f"{where}: input {inp.name!r} {list(inp.shape)} {inp.dtype}; fusion needs a float "
                         "NCHW image input feeding Conv")
    users = graph.consumers.get(inp.name, ())
    bad = [n for n in users if n.op_type != "Conv" or not n.is_standard or n.inputs[0] != inp.name]
    if not users or bad:
        what = ", ".join(f"{n.name} ({n.op_type})" for n in bad) or "nothing"
        raise InputError(f"{where}: input {inp.name!r} feeds {what}; fusion folds into Conv only - fold any "
                         "in-graph preprocessing first or keep normalisation in software")
    channels = inp.shape[1]
    if not isinstance(channels, int):
        raise InputError(f"{where}: input {inp.name!r} has no static channel count")
    a, d = _coefficients(spec, channels)
    padded = any(_padded(n.proto) for n in users) and bool(np.any(d != 0))  # zero mean: padding stays exact
    chosen = "subtract" if strategy == "subtract" or (strategy == "auto" and padded) else "fold"
    if chosen == "fold" and padded and not _ignore_padding:
        raise InputError(f"{where}: the first Conv pads its input; zero padding of the normalised input is "
                         "mean padding of raw pixels, so a pure weight fold is wrong at the border; use "
                         "strategy 'subtract' or 'auto'")

    out = onnx.ModelProto()
    out.CopyFrom(graph.model)
    g = out.graph
    float_type = g.input[[i.name for i in g.input].index(inp.name)].type.tensor_type.elem_type
    np_float = helper.tensor_dtype_to_np_dtype(float_type)
    feed = inp.name
    nodes: list[onnx.NodeProto] = []
    if input_dtype == "uint8":
        nodes.append(helper.make_node("Cast", [feed], [f"{inp.name}__float"], to=float_type,
                                      name=f"{inp.name}__cast"))
        feed = f"{inp.name}__float"
    if chosen == "subtract":
        shift = numpy_helper.from_array(d.reshape(1, channels, 1, 1).astype(np_float), f"{inp.name}__mean_raw")
        g.initializer.append(shift)
        nodes.append(helper.make_node("Sub", [feed, shift.name], [f"{inp.name}__centred"], name=f"{inp.name}__sub"))
        feed = f"{inp.name}__centred"
    inits = {t.name: t for t in g.initializer}
    changed = []
    for node in g.node:
        if node.op_type != "Conv" or not node.input or node.input[0] != inp.name:
            continue
        group = next((helper.get_attribute_value(x) for x in node.attribute if x.name == "group"), 1)
        if group != 1:
            raise InputError(f"{where}: first Conv {node.name or node.output[0]!r} has group={group}; "
                             "fusion supports group=1 only")
        if node.input[1] not in inits or (len(node.input) > 2 and node.input[2] and node.input[2] not in inits):
            raise InputError(f"{where}: first Conv {node.name or node.output[0]!r} weights are not initializers")
        w = numpy_helper.to_array(inits[node.input[1]]).astype(np.float64)
        b = (numpy_helper.to_array(inits[node.input[2]]).astype(np.float64)
             if len(node.input) > 2 and node.input[2] else np.zeros(w.shape[0]))
        w2 = w * a.reshape(1, channels, 1, 1)
        b2 = b if chosen == "subtract" else b - (w2 * d.reshape(1, channels, 1, 1)).sum(axis=(1, 2, 3))
        tag = node.name or node.output[0]
        wt = numpy_helper.from_array(w2.astype(np_float), f"{tag}__W_fused")
        bt = numpy_helper.from_array(b2.astype(np_float), f"{tag}__B_fused")
        g.initializer.extend([wt, bt])
        del node.input[:]
        node.input.extend([feed, wt.name, bt.name])
        changed.append(tag)
    for i, n in enumerate(nodes):
        g.node.insert(i, n)
    if input_dtype == "uint8":
        for vi in g.input:
            if vi.name == inp.name:
                vi.type.tensor_type.elem_type = TensorProto.UINT8
    used = {x for n in g.node for x in n.input}
    kept = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(kept)
    del g.value_info[:]
    try:
        onnx.checker.check_model(out)
        out = onnx.shape_inference.infer_shapes(out, strict_mode=True)
    except Exception as exc:  # pragma: no cover - a rewrite bug, not user input
        raise RuntimeError(f"fusion produced an invalid model: {exc}") from exc
    calib = (f"raw {input_dtype} {spec.color} pixels 0..255 after resize/crop/letterbox, before scale/mean/std "
             f"(apply() of the spec with fuse_normalization=true); not normalised floats")
    return FusionResult(out, chosen, inp.name, input_dtype, tuple(changed), calib)
