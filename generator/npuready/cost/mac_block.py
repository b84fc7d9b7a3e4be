"""The OFM block an Ethos-U compiler picks for a MAC op (conv, fully connected, depthwise, pooling) and the
cycles its block pipeline takes to fill and drain (integer arithmetic, except where regor uses floats).

Source: regor in the ethos-u-vela 5.2.0 sdist.

- **Block search** — ``architecture/ethosu55/ethos_u55.cpp`` ``ArchEthosU55::FindBlockConfig`` with
  ``TryBlockConfig``, ``GetArchIFMBlockSize``, ``FitBlockForOFM`` and ``ChooseKernelMethod``, for int8
  operands without upscaling: OFM blocks in micro-block steps up to 32 x 64 x 128 (H x W x C), depths from
  ``min(C, 16)`` rounded to 16 while below C; a block fits when its double-buffered IFM banks and 32-bit
  accumulator banks fit the SHRAM (``s_EthosU55Configs`` / ``s_EthosU65Configs``: banks of 1024 bytes,
  2 reserved output banks, 2 reserved LUT banks, the IFM8 and Acc32 bank granules); the cheapest block by
  ``(IFM fetch + weight fetch) / OFM elements`` wins (halved when the whole IFM fits in two IFM blocks; a tie
  goes to a block of at most 4 x 4 pixels that covers the IFM no worse). The costs are 32-bit floats
  evaluated in regor's order, as ties between equally good blocks fall on their rounding.
- **Fill and drain** — ``architecture/ethosu55/ethos_u55_performance.cpp`` ``EstimateMacOpCycles`` for an
  op scheduled alone (``OpScheduling::Single``): the MAC and output (AO) stages overlap block by block, so
  the op takes ``max(MAC, AO) x blocks`` plus one block of the other stage, plus the first IFM block's read
  (``MinimumIfmCycles``) and the last OFM block's write (``MinimumOfmCycles``): memory latency + the block's
  bytes x max burst / burst (``EstimateMemoryTransfer``) / bandwidth; and no stage runs faster than the
  command issue limit ``(|OFM block - IFM block| + MAC block + AO block) / 4``. Not modelled: the scale and
  bias read per block (``biasCyclesPerBlock``, 10 x block depth x weight-memory latency / 256), smaller than
  the AO block whenever the weights are in SRAM.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

OFM_SPLIT_DEPTH = 16
BLOCK_MAX = (32, 64, 128)  # H, W, C (ArchEthosU55 _ofmBlockMax)
SUBKERNEL_MAX = 8  # _subkernelMax 8 x 8
IFM_UBLOCK_DEPTH = 8  # ifmUblock depth of every Ethos-U55/U65 configuration
BANK_BYTES = 1024
RESERVED_OUTPUT_BANKS = 2
RESERVED_END_BANKS = 2  # banks > 16: the LUT's two banks
ACC_BITS = 32  # SHRAM_Acc32 (int8 operands)
KINDS = ("conv", "depthwise", "pool")


@dataclass(frozen=True)
class Shram:
    """The SHRAM of one Ethos-U configuration: total banks and the IFM8 / Acc32 bank granules."""
    banks: int
    ifm_granule: int
    acc_granule: int


@dataclass(frozen=True)
class MacOp:
    """A MAC op as the block search sees it: NHWC (H, W, C) of IFM and OFM, kernel and stride (H, W)."""
    kind: str  # conv (also fully connected) | depthwise | pool
    ifm: tuple[int, int, int]
    ofm: tuple[int, int, int]
    kernel: tuple[int, int] = (1, 1)
    stride: tuple[int, int] = (1, 1)
    dilation: tuple[int, int] = (1, 1)


@dataclass(frozen=True)
class Memory:
    """Where a feature map lives: read or write latency (cycles), bytes per cycle, longest burst (bytes; 0 =
    no burst penalty), and whether the tensor is in plain NHWC (graph inputs/outputs) or the NHCWB16 brick format."""
    latency: int
    bytes_per_cycle: float
    max_burst: int
    nhwc: bool = False


def round_up(x: int, step: int) -> int:
    return -(-x // step) * step


def block_candidates(ofm: tuple[int, int, int], ublock: tuple[int, int, int]):
    """The (H, W, C) OFM blocks ``FindBlockConfig`` tries, in its order: depths from ``min(C, 16)`` in
    micro-block steps (rounded up to 16 while below C), heights and widths in micro-block steps, all up to
    the OFM rounded to micro-blocks and capped at ``BLOCK_MAX``."""
    uh, uw, ud = ublock
    sh, sw, sd = (round_up(min(s, m), u) for s, m, u in zip(ofm, BLOCK_MAX, ublock))
    depth = max(ud, min(sd, OFM_SPLIT_DEPTH))
    if depth < ofm[2]:
        depth = round_up(depth, OFM_SPLIT_DEPTH)
    while depth <= sd:
        for h in range(uh, sh + 1, uh):
            for w in range(uw, sw + 1, uw):
                yield h, w, depth
        depth += ud
        if depth < ofm[2]:
            depth = round_up(depth, OFM_SPLIT_DEPTH)


def part_kernel(ifm_depth: int, kernel_elems: int) -> bool:
    """``ChooseKernelMethod`` for int8: part-kernel-first when its utilisation is at least depth-first's."""
    if ifm_depth <= 8:
        return True
    depth_util = ifm_depth / round_up(ifm_depth, 32)
    part_util = ifm_depth / round_up(ifm_depth, 8) * (kernel_elems / round_up(kernel_elems, 4))
    return part_util >= depth_util


def _ifm_block(op: MacOp, h: int, w: int, ublock: tuple[int, int, int]) -> tuple[int, int]:
    """``GetArchIFMBlockSize``: the IFM rows and columns an OFM block of h x w needs (no upscaling)."""
    dil_h = (op.kernel[0] - 1) * op.dilation[0] + 1
    dil_w = (op.kernel[1] - 1) * op.dilation[1] + 1
    ih = (h - 1) * op.stride[0] + min(dil_h, SUBKERNEL_MAX)
    iw = (w - 1) * op.stride[1] + min(dil_w, SUBKERNEL_MAX)
    return round_up(ih, ublock[0]), round_up(iw, ublock[1])


def _fits(ifm_wh: int, ifm_depth: int, ofm_wh: int, ofm_depth: int, shram: Shram) -> bool:
    """``TryBlockConfig`` (not elementwise): double-buffered IFM and accumulator banks below the LUT."""
    ifm_banks = round_up(-(-(ifm_wh * round_up(ifm_depth, 8)) // BANK_BYTES) * 2, shram.ifm_granule)
    acc_banks = round_up(-(-(ofm_wh * round_up(ofm_depth, 8) * ACC_BITS // 8) // BANK_BYTES) * 2, shram.acc_granule)
    return RESERVED_OUTPUT_BANKS + ifm_banks <= shram.banks - RESERVED_END_BANKS - acc_banks


def _relative_cost(op: MacOp, block: tuple[int, int, int], ifm_block_elems: int, ifm_block_wh: int, weight_wh: int,
                   ifm_repeats: int, equal_depth: bool) -> np.float32:
    """``FindBlockConfig``'s cost of one candidate block, in 32-bit floats evaluated in regor's order (ties
    between blocks are decided on these roundings)."""
    f = np.float32
    (ih, iw, ic), (oh, ow, oc) = op.ifm, op.ofm
    fh, w, depth = block
    bx, by, bz = f(ow) / f(w), f(oh) / f(fh), f(oc) / f(depth)
    weight_fetch = f(weight_wh * ic * -(-oh // fh) * -(-ow // w))
    if op.kind != "depthwise":
        weight_fetch = weight_fetch * bz * f(depth)
    ifm_fetch = f(ifm_block_wh * ic * ifm_repeats) * bx * by
    if not equal_depth:
        ifm_fetch = ifm_fetch * f(-(-oc // depth))
    cost = (ifm_fetch + weight_fetch) / f(oh * ow * oc)
    if ih * iw * ic < ifm_block_elems * 2:
        cost = cost / f(2.0)
    return cost


@functools.lru_cache(maxsize=4096)  # a layer's block serves its pipeline and its weight order
def find_block(op: MacOp, ublock: tuple[int, int, int],
               shram: Shram) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(OFM block, IFM block), each (H, W, C), that ``FindBlockConfig`` chooses for ``op``."""
    (ih, iw, ic), oh = op.ifm, op.ofm[0]
    uh, uw, ud = ublock
    equal_depth = op.kind != "conv"
    pk = op.kind == "conv" and part_kernel(ic, op.kernel[0] * op.kernel[1])
    ifm_block_depth = round_up(min(ic, 16 if pk else 32), IFM_UBLOCK_DEPTH)
    weight_wh = op.kernel[0] * op.kernel[1] if op.kind != "pool" else 0
    dil_h, dil_w = ((k - 1) * d + 1 for k, d in zip(op.kernel, op.dilation))
    ifm_repeats = -(-dil_w // SUBKERNEL_MAX) * -(-dil_h // SUBKERNEL_MAX)
    best = None
    best_cost = best_cover = math.inf
    wont_fit: set[tuple[int, int]] = set()
    for h, w, depth in block_candidates(op.ofm, ublock):
        if (h, w) in wont_fit:
            continue
        bh, bw = _ifm_block(op, h, w, ublock)
        bd = depth if equal_depth else ifm_block_depth
        fh = min(h, 1) if (oh == 1 and op.kernel[0] == 1 and uh == 2) else h  # FitBlockForOFM
        if not _fits(bh * bw, bd, fh * w, depth, shram):
            wont_fit.add((h, w))
            continue
        cost = _relative_cost(op, (fh, w, depth), bh * bw * bd, bh * bw, weight_wh, ifm_repeats, equal_depth)
        if cost > best_cost:
            continue
        if cost == best_cost:
            cover = np.float32(ih * iw) / np.float32(max(min(ih, bh) * min(iw, bw), 1))
            if not (cover <= best_cover and h <= 4 and w <= 4):
                continue
            best_cover = cover
        else:
            best_cover = math.inf
        best_cost, best = cost, ((h, w, depth), (bh, bw, bd))
    return best if best is not None else (ublock, (*_ifm_block(op, uh, uw, ublock), ifm_block_depth))


def block_transfer_cycles(shape: tuple[int, int, int], block: tuple[int, int, int], mem: Memory, read: bool) -> int:
    """``MinimumIfmCycles`` / ``MinimumOfmCycles``: latency + one block's int8 transfer (``EstimateMemoryTransfer``,
    one core) over the bandwidth."""
    clipped = tuple(min(s, b) for s, b in zip(shape, block))
    _, bw, bd = block
    channels = shape[2]
    if mem.nhwc:
        if read:
            burst = bw * bd if channels == bd else bd
        else:
            burst = bw * bd if (bd <= 16 and channels == bd) else min(64, 16, bd)
    else:  # NHCWB16: the brick stride (W x 16 bytes) never equals a block depth here
        burst = bw * bd if shape[1] * 16 == bd else 16 * bw
    nbytes = math.prod(clipped)
    tx = nbytes * mem.max_burst // min(mem.max_burst, burst) if mem.max_burst else nbytes
    return mem.latency + int(tx / mem.bytes_per_cycle)


def pipeline_cycles(mac_cycles: int, ao_per_elem: float, op: MacOp, ublock: tuple[int, int, int], shram: Shram,
                    ifm_mem: Memory, ofm_mem: Memory) -> int:
    """NPU cycles of ``op`` scheduled alone (``EstimateMacOpCycles``, ``OpScheduling::Single``) when its MAC
    stage takes ``mac_cycles`` in all and its output stage ``ao_per_elem`` cycles per OFM element."""
    ofm_block, ifm_block = find_block(op, ublock, shram)
    block = tuple(min(s, b) for s, b in zip(op.ofm, ofm_block))
    ub_all = math.prod(-(-s // u) for s, u in zip(op.ofm, ublock))
    ub_block = math.prod(-(-b // u) for b, u in zip(block, ublock))
    blocks = ub_all / ub_block
    mac_block = mac_cycles / blocks
    ao_block = math.ceil(ao_per_elem * math.prod(block))
    ifm_cycles = block_transfer_cycles(op.ifm, ifm_block, ifm_mem, read=True)
    ofm_cycles = block_transfer_cycles(op.ofm, ofm_block, ofm_mem, read=False)
    min_mem = abs(ofm_cycles - ifm_cycles) if blocks > 1 else 0
    cmd = (min_mem + mac_block + ao_block) / 4
    mac_b, ao_b = max(mac_block, cmd), max(ao_block, cmd)
    total = int(mac_b * blocks) + ao_b if mac_b > ao_b else ao_b * blocks + mac_b
    return int(total) + ofm_cycles + ifm_cycles
