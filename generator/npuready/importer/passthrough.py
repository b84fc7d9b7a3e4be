"""Identity and inference-mode Dropout removed: each reader of the node's output reads its input instead.

When the output is a graph output, its name is kept: the producer of the input is renamed to write it
(unless the input is itself a graph input, an initializer or another graph output — then the node stays).
A Dropout whose mask output is read, or whose ``training_mode`` input is not a constant false, stays.
"""
from __future__ import annotations

import onnx

from npuready.importer.edit import (consumers, constant, drop_unused_constants, drop_value_info, initializers,
                                   producers, remove_nodes, rename_value)
from npuready.importer.record import Rewrite

_KIND = {"Identity": "identity-removed", "Dropout": "dropout-removed"}


def _removable(g: onnx.GraphProto, n: onnx.NodeProto, users, inits, prods) -> bool:
    if n.domain not in ("", "ai.onnx") or n.op_type not in _KIND or not n.input or not n.input[0]:
        return False
    if n.op_type == "Dropout":
        if len(n.output) > 1 and n.output[1] and (users.get(n.output[1]) or n.output[1] in _outputs(g)):
            return False
        if len(n.input) > 2 and n.input[2]:
            mode = constant(g, n.input[2], inits, prods)
            if mode is None or bool(mode.reshape(-1)[0]):
                return False
    return True


def _outputs(g: onnx.GraphProto) -> set[str]:
    return {o.name for o in g.output}


def rewrite(model: onnx.ModelProto) -> tuple[onnx.ModelProto, list[Rewrite]]:
    g = model.graph
    out: list[Rewrite] = []
    done: list[onnx.NodeProto] = []
    for n in list(g.node):
        if n.op_type not in _KIND:
            continue
        users, inits, prods = consumers(g), initializers(g), producers(g)
        if not _removable(g, n, users, inits, prods):
            continue
        src, dst = n.input[0], n.output[0]
        name = n.name or n.op_type
        if dst in _outputs(g):
            if src in _outputs(g) or src in inits or src not in prods:
                continue  # a graph input, an initializer or another graph output: the node stays
            rename_value(g, src, dst)  # the producer now writes the graph output's name; n reads dst → dst
            drop_value_info(g, {src})
            detail = f"the producer of '{src}' writes graph output '{dst}' directly"
        else:
            rename_value(g, dst, src)
            drop_value_info(g, {dst})
            detail = f"readers of '{dst}' read '{src}'"
        done.append(n)
        out.append(Rewrite(_KIND[n.op_type], (name,), detail))
    remove_nodes(g, done)
    drop_unused_constants(g, {v for n in done for v in n.input[1:] if v})  # a Dropout's ratio / training_mode
    return model, out
