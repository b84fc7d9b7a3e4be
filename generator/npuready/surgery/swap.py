"""Activation swap: replace activations a target runs on the host with ones it runs on the NPU.

Module activations (nn.GELU, nn.SiLU, …) are replaced in place; functional calls (F.gelu, torch.sigmoid
…) are rewritten on the torch.fx graph. The ONNX op each activation exports to decides support:
``target.runs_on_npu(op)`` for every op in its export pattern.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.fx
from torch import nn

from npuready.targets import Target

# torch activation → the ONNX ops it exports to at opset 17 (GELU exports as an Erf pattern).
EXPORTS_TO: dict[type, tuple[str, ...]] = {
    nn.GELU: ("Erf",), nn.SiLU: ("Sigmoid",), nn.Sigmoid: ("Sigmoid",), nn.Tanh: ("Tanh",),
    nn.Hardswish: ("HardSwish",), nn.Hardsigmoid: ("HardSigmoid",), nn.Mish: ("Softplus", "Tanh"),
    nn.ELU: ("Elu",), nn.ReLU: ("Relu",), nn.ReLU6: ("Clip",), nn.LeakyReLU: ("LeakyRelu",),
}
FUNCTIONAL: dict[object, type] = {
    torch.nn.functional.gelu: nn.GELU, torch.nn.functional.silu: nn.SiLU, torch.sigmoid: nn.Sigmoid,
    torch.tanh: nn.Tanh, torch.nn.functional.mish: nn.Mish, torch.nn.functional.elu: nn.ELU,
}
# Replacement preference: closest shape first, cheapest last.
REPLACEMENTS: tuple[type, ...] = (nn.Hardswish, nn.ReLU6, nn.ReLU)


@dataclass(frozen=True)
class Swap:
    where: str
    old: str
    new: str


def supported(cls: type, target: Target) -> bool:
    return all(target.runs_on_npu(op) for op in EXPORTS_TO.get(cls, ("?",)))


def replacement_for(target: Target) -> type | None:
    for candidate in REPLACEMENTS:
        if supported(candidate, target):
            return candidate
    return None


def swap_activations(model: nn.Module, target: Target) -> tuple[nn.Module, list[Swap]]:
    """Return a model (fx GraphModule when functional calls were rewritten) and the swaps made."""
    swaps: list[Swap] = []
    for name, module in list(model.named_modules()):
        for child_name, child in list(module.named_children()):
            cls = type(child)
            if cls in EXPORTS_TO and not supported(cls, target):
                new = replacement_for(target)
                if new is None:
                    continue
                setattr(module, child_name, new())
                swaps.append(Swap(f"{name}.{child_name}" if name else child_name, cls.__name__, new.__name__))
    try:
        gm = torch.fx.symbolic_trace(model)
    except Exception:  # untraceable models keep their module-level swaps only
        return model, swaps
    changed = False
    for node in list(gm.graph.nodes):
        if node.op == "call_function" and node.target in FUNCTIONAL:
            cls = FUNCTIONAL[node.target]
            if supported(cls, target):
                continue
            new = replacement_for(target)
            if new is None:
                continue
            mod_name = f"swapped_{node.name}"
            gm.add_submodule(mod_name, new())
            with gm.graph.inserting_after(node):
                repl = gm.graph.call_module(mod_name, (node.args[0],))
            node.replace_all_uses_with(repl)
            gm.graph.erase_node(node)
            swaps.append(Swap(node.name, cls.__name__, new.__name__))
            changed = True
    if changed:
        gm.recompile()
        return gm, swaps
    return model, swaps
