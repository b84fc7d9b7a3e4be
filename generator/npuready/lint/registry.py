"""The explicit rule registry: id → Rule, in documentation order. Ids are never reused."""
from __future__ import annotations

from npuready.lint.rule import Rule
from npuready.lint.rules import (
    r001a_dynamic_axes,
    r001b_batch_one,
    r002_data_dependent_size,
    r003_3d_ops,
    r004_tiling,
    r005_activation_allowlist,
    r006_unfoldable_norm,
    r007_resize_interpolation,
    r008_nonstandard_op,
    r009_off_npu,
)

RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        r001a_dynamic_axes.RULE,
        r001b_batch_one.RULE,
        r002_data_dependent_size.RULE,
        r003_3d_ops.RULE,
        r004_tiling.RULE,
        r005_activation_allowlist.RULE,
        r006_unfoldable_norm.RULE,
        r007_resize_interpolation.RULE,
        r008_nonstandard_op.RULE,
        r009_off_npu.RULE,
    )
}
