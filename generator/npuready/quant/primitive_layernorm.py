"""A LayerNorm written as primitives → the int8 op sequence the integer engine runs, before quantisation.

Exporters at opsets without LayerNormalization (Paddle2ONNX, torch.onnx before opset 17) write it as

``m = ReduceMean(x); d = x - m; v = ReduceMean(Pow(d, 2)); s = Sqrt(v + ε); y = d / s`` (then · γ + β)

onnxruntime's QDQ quantiser leaves ``Pow`` and ``Sqrt`` in float (neither is in its registries, and
``ReduceMean`` reads ``Pow``'s output), so the integer export refuses the model at the first ``Pow``
(PP-OCRv4's recogniser: 5 such norms). This rewrites each occurrence to the form
``engine.decompose_layernorm`` writes for LayerNormalization: ``Pow(d, 2)`` → ``Mul(d, d)`` (quantised
by onnxruntime, an int8 MUL), and ``d / Sqrt(v + ε)`` → ``d · Pow(v + ε, -½)`` (one int8 table, then an
int8 MUL). Float results equal the original's up to float32 rounding. Tensor names of ``d``, the square
and the normalised output are kept; the reciprocal square root gets a new name (it is not ``Sqrt``'s
value). Run on a model whose constants are initializers (``prepare.fold_constants``).
"""
from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper


def _scalar(inits: dict, name: str) -> float | None:
    t = inits.get(name)
    if t is None:
        return None
    a = numpy_helper.to_array(t)
    return float(a.reshape(-1)[0]) if a.size == 1 else None


def rewrite_primitive_layernorm(model: onnx.ModelProto) -> tuple[onnx.ModelProto, int]:
    """A copy of ``model`` with every ``d / Sqrt(ReduceMean(d²) + ε)`` rewritten; (model, count)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    readers: dict[str, list] = {}
    for n in g.node:
        for i in n.input:
            readers.setdefault(i, []).append(n)
    graph_outputs = {o.name for o in g.output}
    replace: dict[int, list] = {}  # id(node) -> nodes written in its place
    count = 0
    for sq in g.node:
        if sq.op_type != "Pow" or _scalar(inits, sq.input[1]) != 2.0:
            continue
        d = sq.input[0]
        mean = readers.get(sq.output[0], [])
        if len(mean) != 1 or mean[0].op_type != "ReduceMean" or sq.output[0] in graph_outputs:
            continue
        add = readers.get(mean[0].output[0], [])
        if len(add) != 1 or add[0].op_type != "Add":
            continue
        eps_in = [i for i in add[0].input if i != mean[0].output[0]]
        if len(eps_in) != 1 or _scalar(inits, eps_in[0]) is None:
            continue
        sqrt = readers.get(add[0].output[0], [])
        if len(sqrt) != 1 or sqrt[0].op_type != "Sqrt":
            continue
        divs = readers.get(sqrt[0].output[0], [])
        if not divs or any(n.op_type != "Div" or list(n.input) != [d, sqrt[0].output[0]] for n in divs) \
                or sqrt[0].output[0] in graph_outputs:
            continue
        p = sqrt[0].name or sqrt[0].output[0]
        half = f"{p}#minus_half"
        g.initializer.append(numpy_helper.from_array(np.asarray(-0.5, np.float32), half))
        rstd = f"{p}/rsqrt"
        replace[id(sq)] = [helper.make_node("Mul", [d, d], [sq.output[0]], name=f"{sq.name or p}/Square")]
        replace[id(sqrt[0])] = [helper.make_node("Pow", [add[0].output[0], half], [rstd], name=f"{p}/Rsqrt")]
        for div in divs:
            replace[id(div)] = [helper.make_node("Mul", [d, rstd], [div.output[0]], name=f"{div.name or p}/Normalize")]
        count += 1
    if not count:
        return m, 0
    nodes = [new for n in g.node for new in replace.get(id(n), [n])]
    del g.node[:]
    g.node.extend(nodes)
    return m, count
