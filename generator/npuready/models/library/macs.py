"""An independent MAC count of a library-built torch module, to check the cost model's MAC totals against.

It runs the module once under ``torch.utils.flop_counter.FlopCounterMode``, torch's own FLOP counter,
which counts 2 FLOPs per multiply-accumulate for convolutions, matrix products (mm/addmm/bmm/baddbmm)
and scaled-dot-product attention; MACs = FLOPs / 2. Element-wise ops, norms and pooling are not counted
(as in the cost model's MAC column). Random-initialised weights do not change the count.

On CPU, ``F.scaled_dot_product_attention`` dispatches to a fused kernel the counter has no formula for
(``_scaled_dot_product_flash_attention_for_cpu``: counted as 0, which made ViT/DeiT/MobileViT short by
their attention matmuls); the count therefore runs with the MATH backend, which computes the same
attention as ``bmm`` calls the counter does count.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MacCount:
    name: str
    input_shape: tuple[int, int, int, int]
    macs: int
    by_op: dict[str, int]   # torch aten op -> MACs


def count_module_macs(module, input_shape: tuple[int, ...]) -> tuple[int, dict[str, int]]:
    """(total MACs, MACs per aten op) of one forward pass of ``module`` at ``input_shape``."""
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from torch.utils.flop_counter import FlopCounterMode

    counter = FlopCounterMode(display=False)
    with torch.no_grad(), sdpa_kernel(SDPBackend.MATH), counter:
        module(torch.zeros(input_shape))
    by_op = {str(op).split(".")[-1] if "." in str(op) else str(op): int(flops) // 2
             for op, flops in counter.get_flop_counts().get("Global", {}).items()}
    return int(counter.get_total_flops()) // 2, dict(sorted(by_op.items()))


def count_macs(name: str, *, batch: int = 1, image_size: int | None = None) -> MacCount:
    """MACs of recipe ``name`` built exactly as ``export_onnx`` builds it."""
    from npuready.models.library.build import build_module
    from npuready.models.library.recipes import get_recipe

    recipe = get_recipe(name)
    size = image_size or recipe.image_size
    module = build_module(recipe, size)
    shape = (batch, 3, size, size)
    total, by_op = count_module_macs(module, shape)
    return MacCount(name, shape, total, by_op)
