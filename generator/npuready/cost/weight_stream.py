"""The bytes an Ethos-U compiler streams for one layer's weights: int8 values as LiteRT quantizes them, in the
order the hardware reads them, packed by Vela's weight codec, plus the per-channel scale records.

Source: regor in the ethos-u-vela 5.2.0 sdist, and LiteRT's post-training quantizer.

- **int8 values** — LiteRT's full-integer quantizer (``tensorflow/lite/tools/optimize``, symmetric per output
  channel): scale = max |w| / 127 per channel, values = round(w x (1 / scale)) half away from zero, clamped to
  +-127; the scale is computed in double and its inverse stored as a float32 that multiplies the float32
  weights (the combination that reproduces every value of the 23 RepVGG-A0 weight tensors LiteRT wrote;
  ``tests/cost/test_cost_weight_stream.py``). Weights that are already int8 (a QDQ model) are taken as they are.
- **Order** — ``architecture/ethosu55/ethos_u55_weight_encoder.cpp`` ``EthosUWeightOrdering::GetNext``, one
  stream (one core): OFM blocks of the block depth the block search picks (``npuready.cost.mac_block``), IFM
  blocks of 32 channels (16 part-kernel-first), 8 x 8 sub-kernels, OFM micro-blocks of 8 channels, kernel
  elements (padded to a multiple of 4 in part-kernel-first and depthwise traversal), IFM micro-blocks of 8
  channels; positions outside the tensor are zeros. Traversal as ``ArchEthosU55::FindBlockConfig`` sets it:
  depthwise, part-kernel-first when ``ChooseKernelMethod`` prefers it for a convolution, else depth-first
  (a fully connected layer is never part-kernel-first).
- **Size** — ``npuready.cost.weight_codec`` (the encoded weight stream, padded to 16 bytes; the reference,
  computed at native speed by ``npuready.cost.native.codec`` with equal sizes) plus
  ``EthosU55WeightEncoder::EncodeScales``: 10 bytes per output channel (40-bit bias, 32-bit scale, 6-bit
  shift), padded to 16 (``compiler/scheduler.cpp``: "Align to 16 for start of next substream"). Vela's
  performance model charges both (``EthosU55Performance::ElementTransferToBytes``: ``encodedWeightSize`` and
  ``encodedScaleSize``).

Not modelled: Vela's OFM-depth slicing of a layer's weights into several streams when it buffers them in SRAM
(each slice its own stream, palette and padding: a few bytes more per slice), and multi-core streams.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from npuready.cost.mac_block import IFM_UBLOCK_DEPTH, MacOp, Shram, find_block, part_kernel, round_up
from npuready.cost import weight_size_cache
from npuready.cost.native import codec as native_codec
from npuready.cost.native import vela_encoder
from npuready.cost.weight_codec import stream_bytes
from npuready.targets.load import WEIGHT_CODECS

ETHOS_U_CODEC = WEIGHT_CODECS[1]  # Target.weight_codec
SCALE_RECORD_BYTES = 10  # EncodeScales SCALE_ELEMENT_SIZE
ALIGN = 16
SUBKERNEL = 8  # 8 x 8 sub-kernels (undilated)
DEPTHWISE, PART_KERNEL, DEPTH_FIRST = "depthwise", "part-kernel", "depth-first"


@dataclass(frozen=True, eq=False)
class LayerWeights:
    """A MAC layer's constant weights as the weight encoder reads them: (O, H, W, I) for a convolution or a
    fully connected layer (H = W = 1), (C, H, W, 1) for a depthwise one; float (quantized here) or int8; and
    the op as the block search sees it (its OFM block depth sets the order)."""
    ohwi: np.ndarray
    op: MacOp
    fully_connected: bool = False


def tflite_int8(weights: np.ndarray) -> np.ndarray:
    """Symmetric per-output-channel (axis 0) int8 values as LiteRT's quantizer computes them."""
    if weights.dtype == np.int8:
        return weights
    w = np.asarray(weights, dtype=np.float32)
    peak = np.abs(w.reshape(w.shape[0], -1)).max(axis=1).astype(np.float64)
    scale = peak / 127.0
    inverse = np.divide(1.0, scale, out=np.zeros_like(scale), where=scale > 0).astype(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):  # a subnormal peak: 1/scale overflows float32
        x = w * inverse.reshape(-1, *([1] * (w.ndim - 1)))
        x[np.isnan(x)] = 0.0  # +-inf stay: the clamp takes them to +-127
        q = np.abs(x)  # round half away from zero, in place: sign(x) * floor(|x| + 0.5)
        q += np.float32(0.5)
        np.floor(q, out=q)
        np.copysign(q, x, out=q)
    np.clip(q, -127, 127, out=q)
    return q.astype(np.int8)


def traversal(weights: LayerWeights) -> str:
    op = weights.op
    if op.kind == "depthwise":
        return DEPTHWISE
    if not weights.fully_connected and part_kernel(op.ifm[2], op.kernel[0] * op.kernel[1]):
        return PART_KERNEL
    return DEPTH_FIRST


def weight_order(w: np.ndarray, ofm_block_depth: int, how: str, ofm_ublock_depth: int = 8,
                 ifm_ublock_depth: int = IFM_UBLOCK_DEPTH, dilation: tuple[int, int] = (1, 1)) -> np.ndarray:
    """The weights ``w`` (O, H, W, I) in the order ``EthosUWeightOrdering`` feeds them to the codec (one stream)."""
    depth_out, kh, kw, depth_in = w.shape
    pk, dw = how == PART_KERNEL, how == DEPTHWISE
    ifm_block = 16 if pk else 32
    step_y, step_x = SUBKERNEL // dilation[0], SUBKERNEL // dilation[1]
    round_to = 4 if (pk or dw) else 1
    parts = []
    for oz in range(0, depth_out, ofm_block_depth):
        ofm_depth = min(ofm_block_depth, depth_out - oz)
        for iz in range(0, 1 if dw else depth_in, ifm_block):
            ifm_depth = ifm_ublock_depth if dw else (min(ifm_block, depth_in - iz) if pk else ifm_block)
            outer, inner = (ifm_depth, 1) if pk else (1, ifm_depth)
            for sy in range(0, kh, step_y):
                sub_h = min(kh - sy, step_y)
                for sx in range(0, kw, step_x):
                    sub_w = min(kw - sx, step_x)
                    elems = round_up(sub_w * sub_h, round_to)
                    grid = np.ix_(np.arange(0, outer, ifm_ublock_depth), np.arange(0, ofm_depth, ofm_ublock_depth),
                                  np.arange(elems), np.arange(0, inner, ifm_ublock_depth),
                                  np.arange(ofm_ublock_depth), np.arange(1 if dw else ifm_ublock_depth))
                    i_outer, o_ublock, element, i_inner, o_z, i_z = grid
                    ky, kx = element // sub_w, element % sub_w
                    ifm_z = iz + i_inner + i_outer + i_z
                    ofm_z = oz + o_ublock + o_z
                    shape = np.broadcast_shapes(*(a.shape for a in grid))
                    valid = np.broadcast_to((ifm_z < depth_in) & (ofm_z < depth_out) & (ky < sub_h), shape)
                    picked = w[np.broadcast_to(np.minimum(ofm_z, depth_out - 1), shape),
                               np.broadcast_to(np.minimum(sy + ky, kh - 1), shape),
                               np.broadcast_to(sx + kx, shape),
                               np.broadcast_to(np.minimum(ifm_z, depth_in - 1), shape)]
                    parts.append(np.where(valid, picked, 0).ravel())
    return np.concatenate(parts).astype(np.int16) if parts else np.zeros(0, dtype=np.int16)


_SIZES: dict[str, int] = {}  # this process's sizes, by weight_size_cache key


def reference_weight_bytes(q: np.ndarray, depth: int, how: str, ofm_ublock_depth: int,
                           dilation: tuple[int, int]) -> int:
    """The encoded size by the NumPy reference: ``weight_order`` then ``weight_codec.stream_bytes``."""
    return stream_bytes(weight_order(q, depth, how, ofm_ublock_depth, dilation=dilation))


def _encoded_size(q: np.ndarray, depth: int, how: str, ofm_ublock_depth: int, dilation: tuple[int, int]) -> int:
    """The same size by the fastest codec at hand: the native one (``cost/native/codec.cpp``), else Vela's own
    encoder, else the reference (equal sizes, ``tests/cost``)."""
    if native_codec.available():
        return native_codec.layer_bytes(q, depth, how, ofm_ublock_depth, IFM_UBLOCK_DEPTH, dilation)
    if vela_encoder.available():
        return vela_encoder.stream_bytes(weight_order(q, depth, how, ofm_ublock_depth, dilation=dilation))
    return reference_weight_bytes(q, depth, how, ofm_ublock_depth, dilation)


def encoded_weight_bytes(weights: LayerWeights, ublock: tuple[int, int, int], shram: Shram) -> int:
    """Bytes of the layer's encoded weight stream (padded to 16), as Vela's ``weight_total_bytes`` counts them.
    Sizes are kept per weight hash in this process and on disk (``npuready.cost.weight_size_cache``)."""
    op = weights.op
    depth = find_block(op, ublock, shram)[0][2]
    how = traversal(weights)
    dilation = tuple(int(d) for d in op.dilation)
    k = weight_size_cache.key(weights.ohwi, (depth, how, ublock[2], dilation))
    if k not in _SIZES:
        if len(_SIZES) > 4096:
            _SIZES.clear()
        size = weight_size_cache.get(k)
        if size is None:
            size = _encoded_size(tflite_int8(weights.ohwi), depth, how, ublock[2], dilation)
            weight_size_cache.put(k, size)
        _SIZES[k] = size
    return _SIZES[k]


def encoded_layer_bytes(weights: LayerWeights, ublock: tuple[int, int, int], shram: Shram) -> int:
    """Bytes Vela streams for the layer: the encoded weights + 10-byte scale records per output channel, each
    padded to 16."""
    return encoded_weight_bytes(weights, ublock, shram) + round_up(SCALE_RECORD_BYTES * weights.ohwi.shape[0], ALIGN)
