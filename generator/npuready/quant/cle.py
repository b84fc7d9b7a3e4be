"""Cross-layer equalisation (Nagel et al. 2019, "Data-Free Quantization"), on a float ONNX model.

For two consecutive convolutions A → (ops that commute with a positive per-channel scale) → B, the
output channel ``i`` of A and the input channel ``i`` of B are rescaled together:
``W_A[i] /= s_i``, ``b_A[i] /= s_i``, ``W_B[:, i] *= s_i`` with ``s_i = sqrt(r_A[i] / r_B[i])``
(``r`` = max |w| of that channel), which makes both per-channel ranges ``sqrt(r_A r_B)``. The float
function is unchanged because ``relu(x / s) = relu(x) / s`` for ``s > 0`` (same for MaxPool,
AveragePool, GlobalAveragePool and the identity). B may also be a Gemm behind a Flatten (axis 1): input
channel ``i`` of A then owns a block of H×W columns of the Gemm weight. Sweeps repeat until the scales
settle (Nagel's iterative variant).

Pairs are *skipped* (and recorded with the reason) when the rescaling would change the function:
Clip/ReLU6 between them (the fixed bound 6 does not scale), a tensor with several consumers
(a residual branch would see the scaled values), a graph output, Reshape/Transpose (channel layout
changes), or weights that are not constant/shared. BatchNorm must already be folded (the zoo's ONNX
files are exported in eval mode with constant folding, which folds it).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import onnx
from onnx import numpy_helper

from npuready.graph import load as load_graph

#: Ops between A and B through which a positive per-channel scale passes unchanged.
PASS_THROUGH = ("Relu", "MaxPool", "AveragePool", "GlobalAveragePool", "Identity")


@dataclass(frozen=True)
class PairRecord:
    first: str                      # node name of A
    second: str                     # node name of B ("" when no partner was found)
    between: tuple[str, ...]        # op types between A and B
    equalised: bool
    reason: str                     # why skipped, or "equalised"
    spread_before: float            # min/max of A's per-output-channel ranges (1.0 = perfectly even)
    spread_after: float


@dataclass(frozen=True)
class CLEResult:
    model: onnx.ModelProto
    pairs: tuple[PairRecord, ...]
    sweeps: int

    @property
    def equalised(self) -> int:
        return sum(p.equalised for p in self.pairs)


def _spread(r: np.ndarray) -> float:
    return float(r.min() / r.max()) if r.size and r.max() > 0 else 1.0


def _out_ranges(w: np.ndarray) -> np.ndarray:
    return np.abs(w.reshape(w.shape[0], -1)).max(axis=1)


def _in_ranges(w: np.ndarray, channels: int, group: int) -> np.ndarray:
    """max |W_B| over every weight that reads input channel i (grouped convs included)."""
    per_group_in = w.shape[1]
    out_per_group = w.shape[0] // group
    r = np.empty(channels, dtype=np.float64)
    for i in range(channels):
        g, j = divmod(i, per_group_in)
        r[i] = np.abs(w[g * out_per_group:(g + 1) * out_per_group, j]).max()
    return r


def _scale_in(w: np.ndarray, s: np.ndarray, group: int) -> np.ndarray:
    per_group_in = w.shape[1]
    out_per_group = w.shape[0] // group
    w = w.copy()
    for i, si in enumerate(s):
        g, j = divmod(i, per_group_in)
        w[g * out_per_group:(g + 1) * out_per_group, j] *= si
    return w


def private_weights(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy where every Conv reads its own weight/bias initializer directly.

    The torch exporter deduplicates equal constants (e.g. the all-zero biases of untrained BatchNorms)
    and reads them through Identity nodes; rescaling one Conv must not rescale another, so each Conv
    gets a private copy. Identity nodes and initializers left without a reader are removed.
    """
    out = onnx.ModelProto()
    out.CopyFrom(model)
    inits = {t.name: t for t in out.graph.initializer}
    identity = {n.output[0]: n.input[0] for n in out.graph.node if n.op_type == "Identity" and n.input}
    uses: dict[str, int] = {}
    for n in out.graph.node:
        for i in n.input:
            uses[i] = uses.get(i, 0) + 1
    taken = set(inits) | {o for n in out.graph.node for o in n.output}
    for n in out.graph.node:
        if n.op_type != "Conv":
            continue
        for k in range(1, min(len(n.input), 3)):
            name = source = n.input[k]
            while source in identity:
                source = identity[source]
            if source not in inits or (name == source and uses.get(name, 0) == 1):
                continue
            new, j = f"{source}_private", 0
            while new in taken:
                j += 1
                new = f"{source}_private{j}"
            taken.add(new)
            copy = onnx.TensorProto()
            copy.CopyFrom(inits[source])
            copy.name = new
            out.graph.initializer.append(copy)
            n.input[k] = new
    used = {i for n in out.graph.node for i in n.input} | {o.name for o in out.graph.output}
    keep = [n for n in out.graph.node if not (n.op_type == "Identity" and n.output[0] not in used)]
    del out.graph.node[:]
    out.graph.node.extend(keep)
    used = {i for n in out.graph.node for i in n.input} | {o.name for o in out.graph.output}
    used |= {i.name for i in out.graph.input}
    keep_init = [t for t in out.graph.initializer if t.name in used]
    del out.graph.initializer[:]
    out.graph.initializer.extend(keep_init)
    return out


def _find_pairs(model: onnx.ModelProto):
    """[(A node, B node | None, between op types, reason)] for every Conv A in the graph."""
    g = load_graph(model)
    outputs = set(g.output_names)
    uses: dict[str, int] = {}
    for n in g.nodes:
        for i in n.inputs:
            uses[i] = uses.get(i, 0) + 1
    found = []
    for a in g.nodes:
        if a.op_type != "Conv":
            continue
        if a.inputs[1] not in g.initializer_names:
            found.append((a, None, (), "weight is not an initializer"))
            continue
        between: list[str] = []
        tensor, reason, b = a.outputs[0], "", None
        while True:
            users = g.consumers.get(tensor, ())
            if tensor in outputs:
                reason = "output of the graph"
                break
            if len(users) != 1:
                reason = f"tensor {tensor!r} has {len(users)} consumers (residual/branch)" if users else "no consumer"
                break
            nxt = users[0]
            if nxt.op_type == "Conv" and nxt.inputs[0] == tensor:
                b = nxt
                break
            if nxt.op_type == "Flatten" and int(nxt.attr("axis", 1)) == 1 and tensor not in outputs:
                gemm = g.consumers.get(nxt.outputs[0], ())
                if (len(gemm) == 1 and gemm[0].op_type == "Gemm" and gemm[0].inputs[0] == nxt.outputs[0]
                        and not gemm[0].attr("transA", 0) and nxt.outputs[0] not in outputs):
                    between.append("Flatten")
                    b = gemm[0]
                    break
            if nxt.op_type in PASS_THROUGH and nxt.inputs[0] == tensor:
                between.append(nxt.op_type)
                tensor = nxt.outputs[0]
                continue
            between.append(nxt.op_type)
            if nxt.op_type == "Clip":
                reason = "Clip (ReLU6) between: its fixed bound does not commute with per-channel scaling"
            else:
                reason = f"{nxt.op_type} between: not scale-equivariant per channel (not handled)"
            break
        if b is not None and b.op_type == "Gemm":
            wb, ca = g.constant(b.inputs[1]), g.constant(a.inputs[1])
            cols = None if wb is None else wb.shape[0 if b.attr("transB", 0) == 0 else 1]
            if ca is None or cols is None or cols % ca.shape[0]:
                reason, b = "Flatten → Gemm columns do not split evenly by channel", None
        if b is not None:
            if b.inputs[1] not in g.initializer_names or (
                    len(a.inputs) > 2 and a.inputs[2] and a.inputs[2] not in g.initializer_names):
                reason, b = "weight or bias is not an initializer", None
            elif uses.get(a.inputs[1], 0) > 1 or uses.get(b.inputs[1], 0) > 1 or (
                    len(a.inputs) > 2 and a.inputs[2] and uses.get(a.inputs[2], 0) > 1):
                reason, b = "weight shared by several nodes", None
        found.append((a, b, tuple(between), reason or "equalised"))
    return g, found


def equalize(model: onnx.ModelProto, max_sweeps: int = 20, tol: float = 1e-8) -> CLEResult:
    """Float ONNX → float ONNX with equalised per-channel weight ranges (same function)."""
    g, found = _find_pairs(private_weights(model))
    weights: dict[str, np.ndarray] = {}

    def get(name: str) -> np.ndarray:
        if name not in weights:
            weights[name] = np.asarray(g.constant(name), dtype=np.float64)
        return weights[name]

    pairs = [(a, b) for a, b, _, _ in found if b is not None]
    before = {a.name: _spread(_out_ranges(get(a.inputs[1]))) for a, _, _, _ in found}
    sweeps = 0
    for sweeps in range(1, max_sweeps + 1):
        change = 0.0
        for a, b in pairs:
            wa, wb = get(a.inputs[1]), get(b.inputs[1])
            group = int(b.attr("group", 1))
            trans = b.op_type == "Gemm" and not b.attr("transB", 0)
            if b.op_type == "Gemm":  # Flatten → Gemm: input channel i owns a block of H×W columns
                w2 = wb.T if trans else wb  # [out, C·H·W]
                wb = w2.reshape(w2.shape[0], wa.shape[0], -1)
            ra, rb = _out_ranges(wa), _in_ranges(wb, wa.shape[0], group)
            ok = (ra > 0) & (rb > 0)
            s = np.ones_like(ra)
            s[ok] = np.sqrt(ra[ok] / rb[ok])
            weights[a.inputs[1]] = wa / s.reshape(-1, *[1] * (wa.ndim - 1))
            if len(a.inputs) > 2 and a.inputs[2]:
                weights[a.inputs[2]] = get(a.inputs[2]) / s
            scaled = _scale_in(wb, s, group)
            if b.op_type == "Gemm":
                scaled = scaled.reshape(scaled.shape[0], -1)
                scaled = scaled.T if trans else scaled
            weights[b.inputs[1]] = scaled
            change = max(change, float(np.max(np.abs(np.log(s))))) if s.size else change
        if change < tol:
            break
    out = onnx.ModelProto()
    out.CopyFrom(g.model)
    touched = {n for a, b in pairs for n in (a.inputs[1], b.inputs[1], *(a.inputs[2:3] if len(a.inputs) > 2 else ()))}
    for init in out.graph.initializer:
        if init.name in touched and init.name in weights:
            init.CopyFrom(numpy_helper.from_array(weights[init.name].astype(np.float32), init.name))
    records = tuple(PairRecord(a.name, b.name if b is not None else "", between, b is not None, reason,
                               round(before[a.name], 6),
                               round(_spread(_out_ranges(get(a.inputs[1]))), 6))
                    for a, b, between, reason in found)
    return CLEResult(out, records, sweeps if pairs else 0)
