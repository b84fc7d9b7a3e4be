"""Vela's Transpose on Ethos-U: the 3-D axis swaps regor decomposes it into, and what each swap moves.

``transpose_swaps(shape, perm)`` follows regor (ethos-u-vela 5.2.0 sdist, ``ethosu/regor``):

- ``GraphIrOptimiser::RewriteIdentityTranspose`` (``compiler/graphir_optimiser.cpp``) drops a permutation
  that keeps every non-unit axis in order (``IsNoOpPermuteForShape``): no op.
- The hardware transposes natively only a 3-D tensor (H, W, C) — or a larger one whose leading axes are all
  1 — with one of the masks NWHC (swap H/W), NHCW (swap W/C) or NCWH (swap H/C)
  (``EthosU55Constraints::OperatorQuery``, ``architecture/ethosu55/ethos_u55_constraints.cpp``; int8). Anything
  else is ``DecomposeTranspose`` (``compiler/scheduler_decompose.cpp``): a selection sort of the axes whose
  every swap is ``SwapAxes``, which reshapes the tensor to 3-D around the swapped axes
  (``ReshapeTo3D``/``ReshapeTo3DAroundAxis``/``ReshapeTo3DAroundEdges``, ``compiler/shape_util.hpp``) and moves
  an axis leftmost/rightmost, swaps, and moves it back — one native swap (``SwapAxesIn3D``) per step. A
  channel shuffle's ``[1, g, C/g, H, W]`` transpose (0, 2, 1, 3, 4) becomes 5 swaps; an NHWC -> NCHW
  rotation of a 4-D tensor 2.

``swap_transfer_bytes(ifm, swapped, target)`` prices one swap the way ``EthosU55Performance::
MeasureCycleCost`` (``architecture/ethosu55/ethos_u55_performance.cpp``) does for a Transpose (a Compound op:
"default estimation based on memory access"): it reads and writes every element once, and
``EstimateMemoryTransfer`` turns elements into bytes moved by burst length — an access shorter than the
memory's burst (``sram_burst_bytes``, vela.ini ``Sram_burst_length``) costs a whole burst. The bursts come
from the block config, which ``Scheduler`` searches with the OFM shape un-permuted to the IFM's
orientation (``compiler/scheduler.cpp``: ``query.ofmShape.Unpermute(ofm->transpose)``), so both depend on
the IFM's depth ``C`` (``ArchEthosU55::FindBlockConfig``, ``architecture/ethosu55/ethos_u55.cpp``, int8):

- read (NHWC): the IFM block depth is ``roundup(min(C, 32), 8)``; the burst is that depth, or the block's
  whole W x C when the block depth equals ``C`` (the block rows are contiguous);
- write (NHWC): the OFM block depth is 8 when ``C <= 8`` and at least 16 otherwise (``OFMSplitDepth``); the
  burst is ``min(16 x cores, block depth)`` bytes, or the block's W x C when the block depth is at most 16 and
  equals the OFM's own depth.

The block's width is taken as the IFM's width (capped by the burst): the block search is not replicated.
Not modelled either: axes longer than 65536 (``DecomposeLargeAxis``), int32 transposes, the read/write
latencies (Vela takes the larger of the two latency-bounded transfers and the summed access cycles; the
summed access dominates every transpose seen).
"""
from __future__ import annotations

import math

from npuready.targets import Target

NATIVE_3D = frozenset({(0, 1, 2), (1, 0, 2), (0, 2, 1), (2, 1, 0)})  # None, NWHC, NHCW, NCWH
OFM_SPLIT_DEPTH = 16  # regor ArchEthosU55::FindBlockConfig: OFMSplitDepth
WRITE_BURST_ELEMS = 16  # regor EstimateMemoryTransfer: NHWC write burst min(16 x elementBits x cores, depth bits)

Shape3 = tuple[int, int, int]


def is_noop(shape: tuple[int, ...], perm: tuple[int, ...]) -> bool:
    """regor ``IsNoOpPermuteForShape``: the non-unit axes keep their order."""
    last = 0
    for axis in perm:
        if shape[axis] == 1:
            continue
        if axis < last:
            return False
        last = axis
    return True


def transpose_swaps(shape: tuple[int, ...], perm: tuple[int, ...]) -> list[tuple[Shape3, tuple[int, int]]]:
    """The native swaps regor runs for a Transpose of ``shape`` by ``perm``: (IFM as H x W x C, swapped axes)."""
    shape, perm = tuple(int(d) for d in shape), tuple(int(p) for p in perm)
    if is_noop(shape, perm):
        return []
    if _native(shape, perm):  # one native swap: the two axes the permutation exchanges
        a, b = [i for i, p in enumerate(perm) if p != i]
        swaps: list[tuple[Shape3, tuple[int, int]]] = []
        _swap_axes(list(shape), a, b, swaps)
        return swaps
    order = [0] * len(perm)
    for i, p in enumerate(perm):  # the sort order is the inverse permutation
        order[p] = i
    current = list(shape)
    swaps = []
    for axis in range(len(perm)):
        if order[axis] == axis:
            continue
        i = order.index(axis, axis + 1)
        _swap_axes(current, axis, i, swaps)
        order[axis], order[i] = order[i], order[axis]
    return swaps


def _pad3(shape: tuple[int, ...] | list[int]) -> Shape3:
    s = [1] * max(0, 3 - len(shape)) + list(shape)
    return (math.prod(s[:-2]), s[-2], s[-1])


def _native(shape: tuple[int, ...], perm: tuple[int, ...]) -> bool:
    n = len(perm)
    if n <= 3:
        padded = tuple(range(3 - n)) + tuple(p + 3 - n for p in perm)
        return padded in NATIVE_3D
    lead = n - 3
    return (tuple(perm[:lead]) == tuple(range(lead)) and math.prod(shape[:lead]) == 1
            and tuple(p - lead for p in perm[lead:]) in NATIVE_3D)


def _to3d(shape: list[int], counts: tuple[int, int, int]) -> list[int]:
    """regor ``ReshapeTo3D``: merge the first counts[0] axes, the next counts[1], the last counts[2]."""
    a, b = counts[0], counts[0] + counts[1]
    return [max(1, math.prod(shape[:a])), max(1, math.prod(shape[a:b])), max(1, math.prod(shape[b:]))]


def _swap_axes(shape: list[int], a: int, b: int, swaps: list) -> None:
    """regor ``SwapAxes``: swap axes ``a < b`` of ``shape`` (updated in place) with native 3-D swaps."""
    n = len(shape)
    if n <= 3 or (a >= n - 3 and b >= n - 3 and math.prod(shape[:n - 3]) == 1):
        swaps.append((_pad3(shape), (a - (n - 3) if n >= 3 else a + 3 - n, b - (n - 3) if n >= 3 else b + 3 - n)))
        shape[a], shape[b] = shape[b], shape[a]
        return
    if a == 0 and b == 1:  # left-anchored: one swap
        _swap_axes(_to3d(shape, (1, 1, n - 2)), 0, 1, swaps)
        shape[a], shape[b] = shape[b], shape[a]
        return
    if a == n - 2 and b == n - 1:  # right-anchored: one swap
        _swap_axes(_to3d(shape, (n - 2, 1, 1)), 1, 2, swaps)
        shape[a], shape[b] = shape[b], shape[a]
        return
    if a != 0:  # move A leftmost, swap, move it back
        _swap_axes(_to3d(shape, (a, 1, n - a - 1)), 0, 1, swaps)
        shape.insert(0, shape.pop(a))
        _swap_axes(shape, 0, b, swaps)
        _swap_axes(_to3d(shape, (1, a, n - a - 1)), 0, 1, swaps)
        shape.insert(a, shape.pop(0))
        return
    if b != n - 1:  # move B rightmost, swap, move it back
        _swap_axes(_to3d(shape, (b, 1, n - b - 1)), 1, 2, swaps)
        shape.append(shape.pop(b))
        _swap_axes(shape, 0, n - 1, swaps)
        _swap_axes(_to3d(shape, (b, n - b - 1, 1)), 1, 2, swaps)
        shape.insert(b, shape.pop())
        return
    _swap_axes(_to3d(shape, (1, n - 2, 1)), 0, 2, swaps)  # leftmost <-> rightmost
    shape[a], shape[b] = shape[b], shape[a]


def swap_transfer_bytes(ifm: Shape3, swapped: tuple[int, int], target: Target) -> tuple[int, int]:
    """(bytes read, bytes written) of one int8 native swap of an ``ifm`` (H, W, C) tensor: every element once,
    each access rounded up to a whole burst of ``target.sram_burst_bytes`` (regor EstimateMemoryTransfer)."""
    h, w, c = ifm
    ofm = list(ifm)
    ofm[swapped[0]], ofm[swapped[1]] = ofm[swapped[1]], ofm[swapped[0]]
    elems = h * w * c
    burst = target.sram_burst_bytes
    ublock_depth = target.array_cols
    ifm_depth = -(-min(c, target.channel_block or 32) // ublock_depth) * ublock_depth
    read = w * c if ifm_depth == c else ifm_depth
    ofm_depth = ublock_depth if c <= ublock_depth else max(OFM_SPLIT_DEPTH, -(-c // ublock_depth) * ublock_depth)
    if ofm_depth <= OFM_SPLIT_DEPTH and ofm[2] == ofm_depth:
        write = w * ofm_depth
    else:
        write = min(WRITE_BURST_ELEMS * max(1, target.cores), ofm_depth)
    return elems * burst // min(burst, read), elems * burst // min(burst, write)
