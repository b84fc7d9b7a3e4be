"""Cycle formulas for one GEMM on a target's MAC array (pure integer arithmetic).

``systolic-os`` — output-stationary systolic array of R x C PEs, the dataflow of SCALE-Sim
(Samajdar et al., "A Systematic Methodology for Characterizing Scalability of DNN Accelerators
using SCALE-Sim", ISPASS 2020). An M x K by K x N GEMM is cut into ceil(M/R) x ceil(N/C) folds;
each fold streams the K-long operands through the skewed array (K cycles), fills the array
(R - 1 cycles of row skew) and drains the outputs (C - 1 cycles) before the next fold starts:
``folds * (K + R + C - 2)``. SCALE-Sim 3.0.0 counts the last cycle index, so one GEMM takes
``folds * (K + R + C - 2) - 1`` cycles (checked against its COMPUTE_REPORT, see experiments/cost-vs-scalesim).
With several cores the folds are shared round-robin: ``ceil(folds / cores)``.

``dot-product`` — an Ethos-U-style engine: per cycle R output pixels x C output channels each
reduce ``dot_width`` input channels of one kernel element. Input channels are fetched in blocks of
``channel_block`` (B) channels that take B/dot_width cycles even when partly empty, so a conv steps
over every kernel element and ceil(Cin/B) channel blocks:
``ceil(M/R) * ceil(N/C) * kernel * ceil(Cin/B) * B/dot_width`` (depth first). An engine that can also
walk kernel first, packing ``part_kernel_step`` (P) kernel elements per step, takes
``ceil(kernel/P) * ceil(Cin/dot_width) * P`` cycles per micro-block instead when that is fewer
(shallow inputs such as a first RGB layer). Each step loads its weights in at least
``weight_load`` cycles, which bounds layers with few output pixels.
"""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class GemmMapping:
    m: int
    k: int
    n: int
    groups: int
    row_tiles: int  # ceil(M / array_rows)
    col_tiles: int  # ceil(N / array_cols)
    k_steps: int  # cycles of reduction per tile
    cycles: int

    @property
    def tiles(self) -> int:
        return self.groups * self.row_tiles * self.col_tiles


def systolic_os_cycles(m: int, k: int, n: int, rows: int, cols: int, cores: int = 1, groups: int = 1) -> GemmMapping:
    """Output-stationary cycles of ``groups`` independent M x K x N GEMMs (SCALE-Sim's formula)."""
    row_tiles, col_tiles = math.ceil(m / rows), math.ceil(n / cols)
    per_core_folds = math.ceil(row_tiles * col_tiles / cores)
    per_gemm = per_core_folds * (k + rows + cols - 2) - 1 if m and n and k else 0
    return GemmMapping(m, k, n, groups, row_tiles, col_tiles, k, groups * per_gemm)


def dot_product_cycles(m: int, n: int, kernel: int, cin: int, rows: int, cols: int, dot_width: int,
                       cores: int = 1, groups: int = 1, channel_block: int = 0, part_kernel_step: int = 0,
                       weight_load: int = 0, pixel_tiles: int = 0) -> GemmMapping:
    """Cycles of ``groups`` convolutions on a dot-product engine (Ethos-U style micro-blocks).

    The engine walks (kernel element, channel block) steps; a step costs ``step_cycles`` per micro-block
    of R pixels, but never less than ``weight_load`` cycles (the weights of the step must be loaded),
    so layers with few output pixels (1x1 FC, global pooling) are weight-load bound. ``pixel_tiles``, when
    given, replaces ``ceil(M / rows)``: the micro-blocks that cover the output's height and width separately.
    """
    block = channel_block or dot_width
    row_tiles, col_tiles = pixel_tiles or math.ceil(m / rows), math.ceil(n / cols)
    steps, step_cycles = kernel * math.ceil(cin / block), block // dot_width
    if part_kernel_step:
        pk_steps = math.ceil(kernel / part_kernel_step) * math.ceil(cin / dot_width)
        if pk_steps * part_kernel_step < steps * step_cycles:
            steps, step_cycles = pk_steps, part_kernel_step
    per_col_tile = steps * max(weight_load, step_cycles * math.ceil(row_tiles / cores))
    return GemmMapping(m, kernel * cin, n, groups, row_tiles, col_tiles, steps * step_cycles,
                       groups * col_tiles * per_col_tile)
