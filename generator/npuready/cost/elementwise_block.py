"""The OFM block an Ethos-U compiler picks for an elementwise op, and what it costs to read a constant
operand with it (integer arithmetic only).

Source: regor in the ethos-u-vela 5.2.0 sdist, ``architecture/ethosu55/ethos_u55.cpp``
``ArchEthosU55::FindBlockConfig`` and ``TryBlockConfig``, and ``ethos_u55_performance.cpp``
``EstimateMemoryTransfer`` / ``MeasureElementAccess``.

- **Block search** — depths from ``min(C, 16)`` (``OFMSplitDepth`` = 16; rounded up to 16 while below C)
  in micro-block-depth steps up to ``min(C, 128)`` (``_ofmBlockMax`` = 32 x 64 x 128, H x W x C), heights and
  widths in micro-block steps; a block fits when its int8 IFM buffer (``H*W*roundup(D, 8)`` bytes) fits
  the target's ``elementwise_block_bytes`` (the SHRAM banks left for two double-buffered elementwise
  inputs). The cost to beat is ``ofm_elements / (H*W*D)`` (halved when the whole IFM fits twice in the block);
  a tie replaces the best only for blocks of at most 4 x 4 pixels that cover the IFM no worse.
- **Constant operand read** — a non-scalar second operand is read once per OUTPUT element
  (``MeasureElementAccess``), in bursts of the block depth (``block W x D`` when the tensor's channel
  count equals the block depth); ``EstimateMemoryTransfer`` charges ``bytes * max_burst / burst``. An int32
  operand (the zero tensor regor's ``GraphIrOptimiser::ReplaceBroadcastWithAdd`` adds to materialise a double
  broadcast) moves 4 bytes per element, and its block holds a quarter as many elements (TryBlockConfig
  sizes the buffer in bytes).
"""
from __future__ import annotations

import math

from npuready.cost.mac_block import block_candidates, round_up


def _fits(h: int, w: int, d: int, block_bytes: int) -> bool:
    return h * w * round_up(d, 8) <= block_bytes


def elementwise_block(shape: tuple[int, int, int], ublock: tuple[int, int, int],
                      block_bytes: int) -> tuple[int, int, int]:
    """(H, W, C) of the block ``FindBlockConfig`` chooses for an elementwise op with int8 OFM ``shape``
    (H, W, C) on an engine with micro-block ``ublock`` (H, W, C)."""
    oh, ow, oc = shape
    elements = oh * ow * oc
    best, best_cost, best_cover = ublock, math.inf, math.inf
    for h, w, depth in block_candidates(shape, ublock):
        if not _fits(h, w, depth, block_bytes):
            continue
        cost = elements / (h * w * depth)
        if elements < h * w * depth * 2:
            cost /= 2
        if cost > best_cost:
            continue
        cover = (oh * ow) / max(1, min(oh, h) * min(ow, w))
        if cost == best_cost and not (cover <= best_cover and h <= 4 and w <= 4):
            continue
        best_cover = cover if cost == best_cost else math.inf
        best, best_cost = (h, w, depth), cost
    return best


def constant_read_bytes(shape: tuple[int, int, int], channels: int, ublock: tuple[int, int, int], block_bytes: int,
                        max_burst: int, elem_bytes: int = 1) -> int:
    """Bytes moved to read a constant operand of ``elem_bytes``-byte elements (1: int8, 4: int32) with
    ``channels`` innermost elements once per element of the OFM ``shape`` (H, W, C):
    ``ofm * elem_bytes * max_burst // min(max_burst, burst)``; the block holds ``block_bytes`` of such elements."""
    _, bw, bd = elementwise_block(shape, ublock, block_bytes // elem_bytes)
    burst = (bw * bd if channels == bd else bd) * elem_bytes
    return math.prod(shape) * elem_bytes * max_burst // min(max_burst, burst)
