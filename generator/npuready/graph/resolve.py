"""Shape resolution before any rule runs: onnx shape inference, constant folding of shape computations, then
onnxruntime's symbolic shape inference.

``onnx.shape_inference.infer_shapes(..., data_prop=True)`` leaves many shapes of real exports unknown: the
values of shape-computation subgraphs (Shape → Gather → Concat → Reshape, a cls token Expand-ed to the
batch, a channel shuffle's Reshape/Transpose/Reshape, YOLO's Detect head) are propagated only a few ops
deep. So, in order, each step only when the previous one left a dim unresolved:

1. onnx's inference with data propagation (enough for most plain CNNs);
2. with static graph inputs: the values of the compile-time computations, folded by onnxruntime
   (``npuready.graph.ort_fold``), replace their nodes in a copy that onnx's inference runs on again
   (Swin's window padding: pads computed by a chain symbolic inference cannot follow);
3. onnxruntime's ``SymbolicShapeInference``, which computes shape values with sympy and keeps dims that
   depend on a symbolic graph-input dim as expressions of it (``batch``), so R001a reports true dynamism
   only.

The graph is never rewritten: both tools only add ``value_info``; every original node stays as the
user exported it (no optimiser pass, no Conv+BN fusion). The two results are merged dim by dim (a static
size from either wins; otherwise the symbolic tool's name, an expression in the input dims such as
``batch``, replaces onnx's placeholder ``unk__0``).

``SymbolicShapeInference.infer_shapes`` raises on an incomplete result (one op it does not know) and then
saves ``sym_shape_infer_temp.onnx`` into the working directory; so the same four steps are driven here
(``_preprocess``, ``_infer_impl`` until done, ``_update_output_from_vi``: the class's own public method
body, onnxruntime 1.32, pinned in pyproject.toml) and a partial result is used as it is.

Cost: the symbolic pass needs sympy (about a second to import) and runs only when onnx's result leaves a
dim that is neither static nor a graph input's named dim. ``onnxruntime.tools``' package ``__init__``
imports PyTorch when it is installed (seconds, and torch is no core dependency), so the one module
``symbolic_shape_infer`` (which needs only numpy, onnx, sympy and packaging) is imported through
``npuready.ort_tools``, which skips that ``__init__``.
"""
from __future__ import annotations

import logging

import onnx

from npuready.graph.ort_fold import folded_values, with_constants

#: a floating-point initializer of at least this many elements is a weight: shape inference reads its dims only
WEIGHT_ELEMENTS = 4096
_FLOATS = {onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT16, onnx.TensorProto.BFLOAT16}


def onnx_inferred(model: onnx.ModelProto) -> onnx.ModelProto:
    """onnx's own shape inference with data propagation (non-strict); raises what onnx raises.

    ``infer_shapes`` serialises the model, infers in C++ and parses the result back: with the weights, two
    whole copies of them for dims it reads from the tensors' headers. So it runs on a copy whose large
    floating-point initializers carry name, type and dims but no data (the values data propagation and the
    shape-reading ops (Reshape, Slice, Pad, Resize, ...) read are integer or small tensors, kept whole), and
    the initializers are put back, in order, into the inferred model."""
    g = model.graph
    heavy = [i for i, t in enumerate(g.initializer) if t.data_type in _FLOATS and _elements(t) >= WEIGHT_ELEMENTS]
    if not heavy:
        return onnx.shape_inference.infer_shapes(model, check_type=False, strict_mode=False, data_prop=True)
    light = _copy_without(model, onnx.ModelProto(), "graph")
    _copy_without(g, light.graph, "initializer")
    heavy_set = set(heavy)
    for i, t in enumerate(g.initializer):
        if i in heavy_set:
            light.graph.initializer.add(name=t.name, dims=t.dims, data_type=t.data_type)
        else:
            light.graph.initializer.add().CopyFrom(t)
    out = onnx.shape_inference.infer_shapes(light, check_type=False, strict_mode=False, data_prop=True)
    del out.graph.initializer[:]
    out.graph.initializer.extend(g.initializer)
    return out


def _elements(t: onnx.TensorProto) -> int:
    n = 1
    for d in t.dims:
        n *= d
    return n


def _copy_without(src, dst, skip: str):
    """``dst`` (an empty message of ``src``'s type) given every set field of ``src`` except ``skip``."""
    for field, value in src.ListFields():
        if field.name == skip:
            continue
        if field.is_repeated:
            getattr(dst, field.name).extend(value)
        elif field.message_type is not None:
            getattr(dst, field.name).CopyFrom(value)
        else:
            setattr(dst, field.name, value)
    return dst


def symbolic_inferred(model: onnx.ModelProto) -> onnx.ModelProto | None:
    """onnxruntime's symbolic shape inference on ``model`` (possibly partial), or None when it cannot run."""
    module = _symbolic_module()
    if module is None:  # sympy (or the tool) missing: onnx's inference alone
        return None
    if (module.get_opset(model) or 0) < 7:
        return None
    log = logging.getLogger(module.__name__)
    level = log.level
    log.setLevel(logging.CRITICAL)  # its per-node warnings are not the user's business
    try:
        # int_max, auto_merge, guess_output_rank, verbose
        engine = module.SymbolicShapeInference(2**31 - 1, True, False, 0)
        engine._preprocess(model)
        while engine.run_:
            engine._infer_impl()
        engine._update_output_from_vi()
        return engine.out_mp_
    except Exception:  # an op or pattern it cannot handle: keep onnx's result
        return None
    finally:
        log.setLevel(level)


def _symbolic_module():
    """onnxruntime's ``symbolic_shape_infer`` imported without the ``onnxruntime.tools`` package ``__init__``
    (``npuready.ort_tools``); None when it (or sympy) cannot be imported."""
    from npuready.ort_tools import import_tool

    try:
        return import_tool("symbolic_shape_infer")
    except ImportError:
        return None


def resolve(model: onnx.ModelProto, label: str = "model") -> onnx.ModelProto:
    """``model`` with every value's shape as resolved as onnx and onnxruntime's symbolic inference get it.

    Raises what ``onnx_inferred`` raises (the loader reports it as ``Graph.inference_error``), and
    ``ConstantBudgetExceeded`` (bad input) when onnx's result leaves shapes unresolved and a compile-time value
    is above ``graph.constant_budget``'s budget: checked before folding or the symbolic pass could
    materialise it (a model onnx resolves alone runs neither, so its large constants are never refused)."""
    from npuready.graph import constant_budget

    base = onnx_inferred(model)
    if resolved(base):
        return base
    constant_budget.check(base, label)  # only the passes below materialise values
    if _static_inputs(model) and (values := folded_values(model)):
        folded = with_constants(model, values)
        try:
            base = merged(base, onnx_inferred(folded))
        except Exception:  # keep what the original model gave
            pass
        else:
            if resolved(base):
                return base
            model = folded  # the symbolic pass starts from the folded values too
    if spatially_dynamic(model):
        # see spatially_dynamic: the symbolic pass would cost seconds to minutes, and a pin is needed anyway
        return base
    symbolic = symbolic_inferred(model)
    if symbolic is None:
        return base
    return merged(base, symbolic)


def spatially_dynamic(model: onnx.ModelProto) -> bool:
    """True when a graph input has a non-static dim past dim 0 (an image's H or W left open).

    onnxruntime's symbolic pass then carries sympy expressions of H and W through every Conv, Resize and
    Concat (ppocr-det: 7 s of CPU, most of it simplifying Resize sizes) only to tell the user what a pin
    tells for free; every stage needs those dims pinned. So it is skipped: onnx's inference alone runs,
    and ``npuready.graph.dynamic`` treats the dims it leaves unknown as following from the inputs."""
    inits = {t.name for t in model.graph.initializer}
    for vi in model.graph.input:
        if vi.name in inits or not vi.type.HasField("tensor_type") or not vi.type.tensor_type.HasField("shape"):
            continue
        if any(not (d.HasField("dim_value") and d.dim_value > 0) for d in vi.type.tensor_type.shape.dim[1:]):
            return True
    return False


def _static_inputs(model: onnx.ModelProto) -> bool:
    inits = {t.name for t in model.graph.initializer}
    for vi in model.graph.input:
        if vi.name in inits or not vi.type.HasField("tensor_type"):
            continue
        tt = vi.type.tensor_type
        if not tt.HasField("shape") or any(not d.HasField("dim_value") for d in tt.shape.dim):
            return False
    return True


def resolved(model: onnx.ModelProto) -> bool:
    """True when every value's dims are static or named dims of the graph inputs (nothing left to resolve)."""
    g = model.graph
    inits = {t.name for t in g.initializer}
    names = {d.dim_param for vi in g.input if vi.name not in inits and vi.type.HasField("tensor_type")
             for d in vi.type.tensor_type.shape.dim if d.dim_param}
    produced = {o for n in g.node for o in n.output if o}
    typed = set()
    for vi in list(g.value_info) + list(g.output):
        typed.add(vi.name)
        if not vi.type.HasField("tensor_type"):
            continue
        tt = vi.type.tensor_type
        if not tt.HasField("shape"):
            return False
        if any(not d.HasField("dim_value") and d.dim_param not in names for d in tt.shape.dim):
            return False
    return produced <= typed  # a value without any inferred type is unresolved too


def merged(base: onnx.ModelProto, symbolic: onnx.ModelProto) -> onnx.ModelProto:
    """``base`` with each main-graph value's shape replaced by the dim-wise more static of the two results."""
    sym = {vi.name: vi for vi in list(symbolic.graph.value_info) + list(symbolic.graph.output)}
    out = onnx.ModelProto()
    out.CopyFrom(base)
    g = out.graph
    have = {vi.name for vi in g.value_info} | {vi.name for vi in g.output} | {vi.name for vi in g.input}
    for vi in list(g.value_info) + list(g.output):
        other = sym.get(vi.name)
        if other is not None:
            _merge_into(vi, other)
    for name, other in sym.items():
        if name not in have:
            g.value_info.append(other)
    return out


def _merge_into(vi: onnx.ValueInfoProto, other: onnx.ValueInfoProto) -> None:
    if not other.type.HasField("tensor_type") or not other.type.tensor_type.HasField("shape"):
        return
    if vi.type.HasField("sequence_type") or vi.type.HasField("map_type") or vi.type.HasField("optional_type"):
        return
    tt, ot = vi.type.tensor_type, other.type.tensor_type
    if not tt.elem_type and ot.elem_type:
        tt.elem_type = ot.elem_type
    if not tt.HasField("shape") or len(tt.shape.dim) != len(ot.shape.dim):
        if tt.HasField("shape") and _static_count(tt.shape) >= _static_count(ot.shape):
            return  # the two disagree on the rank: keep onnx's unless the symbolic one knows more
        tt.ClearField("shape")
        tt.shape.CopyFrom(ot.shape)
        return
    for mine, theirs in zip(tt.shape.dim, ot.shape.dim):
        if mine.HasField("dim_value"):
            continue
        if theirs.HasField("dim_value") and theirs.dim_value >= 0:
            mine.dim_value = theirs.dim_value
        elif theirs.dim_param:  # its expression in the input dims ("batch") beats onnx's placeholder ("unk__0")
            mine.dim_param = theirs.dim_param


def _static_count(shape: onnx.TensorShapeProto) -> int:
    return sum(1 for d in shape.dim if d.HasField("dim_value"))
