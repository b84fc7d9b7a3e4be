"""Small multi-op pattern probes: the Temporal Shift Module (frames on the batch axis)."""
from __future__ import annotations

import numpy as np
from onnx import helper

from npuready.lint import examples as ex
from npuready.probes.build import chain, i64
from npuready.probes.probe import Probe

N, T, C, H, W = 2, 4, 16, 8, 8
FOLD = C // 8  # channels shifted each way (TSM default: 1/8 forward, 1/8 backward)


def tsm_shift(conv: bool = True):
    """(N*T,C,H,W) → shift FOLD channels one frame back and FOLD one frame forward along T → (N*T,C,H,W)."""
    nodes = [
        helper.make_node("Reshape", ["x", "s5"], ["r"], name="to_ntchw"),
        helper.make_node("Slice", ["r", "a_st", "a_en", "a_ax"], ["a"], name="slice_back"),
        helper.make_node("Pad", ["a", "pad_end"], ["a_p"], name="pad_back"),
        helper.make_node("Slice", ["r", "b_st", "b_en", "a_ax"], ["b"], name="slice_fwd"),
        helper.make_node("Pad", ["b", "pad_begin"], ["b_p"], name="pad_fwd"),
        helper.make_node("Slice", ["r", "c_st", "c_en", "c_ax"], ["c"], name="slice_keep"),
        helper.make_node("Concat", ["a_p", "b_p", "c"], ["cat"], name="concat", axis=2),
        helper.make_node("Reshape", ["cat", "s4"], ["shifted" if conv else "y"], name="to_nchw"),
    ]
    inits = [
        ex.const("s5", i64(N, T, C, H, W)), ex.const("s4", i64(N * T, C, H, W)),
        ex.const("a_st", i64(1, 0)), ex.const("a_en", i64(T, FOLD)), ex.const("a_ax", i64(1, 2)),
        ex.const("b_st", i64(0, FOLD)), ex.const("b_en", i64(T - 1, 2 * FOLD)),
        ex.const("c_st", i64(2 * FOLD)), ex.const("c_en", i64(C)), ex.const("c_ax", i64(2)),
        ex.const("pad_end", i64(0, 0, 0, 0, 0, 0, 1, 0, 0, 0)),
        ex.const("pad_begin", i64(0, 1, 0, 0, 0, 0, 0, 0, 0, 0)),
    ]
    if conv:
        nodes.append(helper.make_node("Conv", ["shifted", "w", "bias"], ["y"], name="conv", kernel_shape=[3, 3],
                                      pads=[1, 1, 1, 1]))
        inits += [ex.weights("w", (C, C, 3, 3)), ex.const("bias", np.zeros(C, np.float32))]
    return chain(nodes, (N * T, C, H, W), inits, name="probe_tsm")


PATTERN_PROBES: tuple[Probe, ...] = (
    Probe(name="TSM_shift_conv", group="pattern", op_types=("Reshape", "Slice", "Pad", "Concat", "Conv"),
          description=f"Temporal Shift Module: (N*T,C,H,W)=({N * T},{C},{H},{W}) frames on the batch axis, "
                      f"{FOLD}+{FOLD} channels shifted along T, then a 3x3 conv",
          build=tsm_shift, batched=True),
)
