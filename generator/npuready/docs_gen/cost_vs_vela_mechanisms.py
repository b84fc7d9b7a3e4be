"""The prose of ``docs/cost-vs-vela.md`` that names Vela's mechanisms: which ones the Ethos-U mirrors model
(with the Vela 5.2.0 source each comes from) and which remain open. Text only: every number on the page
comes from the experiment JSON (``npuready.docs_gen.cost_vs_vela``)."""
from __future__ import annotations

# (name, what Vela does and where in its source, what the mirror does); the ablation that switches it off
MODELLED = (
    ("Constant operands read per output element", "`no_const_reads`",
     "regor's `EthosU55Performance::MeasureElementAccess` reads a non-scalar second operand once per output "
     "element, broadcast or not, and `EstimateMemoryTransfer` charges each NHWC read a burst of the block depth "
     "against the memory's burst length (`vela.ini` `*_burst_length`); the block is the one "
     "`ArchEthosU55::FindBlockConfig` picks in the SHRAM left for two elementwise inputs (`TryBlockConfig`). "
     "The mirrors re-run that block search (`npuready/cost/elementwise_block.py`) and read DenseNet's unfolded "
     "BatchNorm (lowered to Vela's per-channel Mul and Add), LayerNorm's scale and shift, and the OFM-sized "
     "int32 zero tensor `GraphIrOptimiser::ReplaceBroadcastWithAdd` adds to the lowered Softmax's doubly "
     "broadcast Add, from flash (U55) or DRAM (U65) that way."),
    ("Vela's AvgPool NOP passes", "`no_pool_floor`",
     "`ArchEthosU55::UseAvgPoolNop` runs a standalone lookup-table activation, a Quantize (rescale) and a "
     "MemoryCopy as a 1x1 pooling pass, and `EstimateMacCyclesPerBlock` costs pooling at max(4, kernel "
     "elements) steps per micro-block. The mirrors lower a lookup-table activation that does not fuse, every "
     "Concat input (Vela writes each with a Quantize or MemoryCopy), Slice/Split outputs (StridedSlice -> "
     "MemoryCopy) and Pad (MemoryCopy) to such passes, and an exact-GELU pattern to one lookup table in its "
     "producer's output stage (Vela's per-layer report: Add + LUT)."),
    ("Micro-blocks over height and width", "—",
     "`EstimateMacCyclesPerBlock` counts `DivRoundUp(ofmBlock, ofmUBlock)`: a 7 x 7 output on 2 x 2 "
     "micro-blocks takes 16 of them. The mirrors count conv and depthwise micro-blocks per axis, and the "
     "softmax row max (an H x 1 column of pixels) one micro-block row per pixel."),
    ("Graph input in DRAM on the U65", "`no_input_in_dram`",
     "`vela.ini` `Dedicated_Sram` keeps the arena (graph inputs included) in DRAM with the SRAM as a cache; "
     "the first layer reads a 3-channel image in bursts of its 8-deep IFM block (`EstimateMemoryTransfer`)."),
    ("int32 steps of the lowered Softmax and MatMul", "`no_int32_rates`",
     "`softmax.py` keeps exp, sums, reciprocal and scaled outputs in int32; `EstimateAOCyclesPerElement` "
     "selects `outputCycles[1]` for int32 operands and `[2]` for a Mul into an int32 result (the MatMul "
     "scratch of `EstimateMatMulCycles`, which `MeasureElementAccess` counts in elements). The mirrors use "
     "those rates and move 4 bytes per int32 element."),
    ("Encoded weights: Vela's weight codec", "`no_weight_codec`",
     "`EthosU55Performance::ElementTransferToBytes` charges a layer's weight reads as the ENCODED size "
     "(`encodedWeightSize` + `encodedScaleSize`). The mirrors (`weight_codec = \"ethos-u\"`) compute that size "
     "as Vela does: int8 weights as LiteRT's quantizer writes them, in `EthosUWeightOrdering`'s order for the "
     "block depth and traversal the block search picks, packed by a re-implementation of regor's `mlw_codec` "
     "(128 Ki-value sections with a fresh palette, zero-run mode, the greedy Golomb-Rice slice search, 16-byte "
     "padding) plus 10-byte scale records per output channel. Without it, one byte per weight and 4 per bias. "
     "timm zero-initialises the last BatchNorm of each residual block (all-zero output channels cost almost "
     "nothing), and RepVGG's re-parameterised 3x3 kernels compress well below a byte per weight (compare "
     "`total_npu_encoded_weights` with `total_original_weights` in a row's `vela_summary`)."),
    ("Per-column latencies of the lowered MatMul", "`no_column_latency`",
     "`EstimateMatMulCycles` repeats a Mul and a ReduceSum for every output column of an activation x "
     "activation MatMul, and `EstimateMacOpCycles` adds to each ReduceSum its first IFM block's read and last "
     "OFM block's write (`MinimumIfmCycles` / `MinimumOfmCycles`). The mirrors count the two memory latencies "
     "per column (`vela.ini` SRAM 32 cycles; the int32 scratch sits in the feature-map memory, "
     "`scheduler_packing.cpp`, which is DRAM with 500 cycles on the U65's `Dedicated_Sram`), not the block "
     "transfers."),
    ("Block pipeline fill and drain of MAC ops", "`no_block_pipeline`",
     "`EthosU55Performance::EstimateMacOpCycles` overlaps a conv's, fully connected layer's, depthwise conv's "
     "or pooling's MAC and output stages block by block, so an op scheduled alone takes max(MAC, output) per "
     "OFM block times the blocks, plus one block of the other stage, plus its first IFM block's read and last "
     "OFM block's write (`MinimumIfmCycles` / `MinimumOfmCycles`: memory latency + burst-weighted transfer); "
     "no stage runs faster than the command issue limit. The block is the one `ArchEthosU55::FindBlockConfig` "
     "picks in the SHRAM (`s_EthosU55Configs` / `s_EthosU65Configs`). The mirrors re-run that block search "
     "(`npuready/cost/mac_block.py`, shram_banks and granules in the target file) and cost each such layer "
     "this way, which matters most for small feature maps, where a block is most of the layer."),
    ("Fully connected rows as an image", "—",
     "`GraphIrOptimiser::RewriteFullyConnected` turns a fully connected layer's R input rows into an H x W "
     "image with W = max(R / 16, ceil(sqrt R)) raised to a divisor of R; the mirrors count that image's "
     "micro-blocks (49 ViT tokens: 7 x 7), not R / micro-block rows."),
    ("CPU rows in the comparison", "—",
     "Vela leaves a GatherV2 to the CPU (`Passthrough`, 0 NPU cycles); the adapter drops such rows before "
     "matching, so the transposes Vela adds around them join the NPU layer that consumes them instead of a "
     "CPU row the mirror (which also leaves the Gather to the host) prices at zero."),
)

OPEN = (
    "**Global average pooling's weight stream**: regor's `TFLiteGraphOptimiser::ConvertMeanOps` lowers a MEAN "
    "to a DepthwiseConv2D whose weights are all-ones uint8 (`MakeDepthwiseMeanOp`: 1 x h x w x C) with a bias "
    "and scale record per channel, then a Mul; those weights and 10-byte scale records stream from the constant "
    "memory like any conv's (on the U55 from 0.5 GB/s flash, where 10 bytes per channel can outweigh the "
    "pooling itself). The mirrors cost the lowered depthwise without that stream (`npuready.cost.weight_stream` "
    "would size it; not wired to the Mean lowering).",
    "**Weight prefetch** (small layers, chiefly on the Ethos-U65): regor's scheduler copies a layer's encoded "
    "weights from DRAM into the SRAM staging area before it runs (`Scheduler::ProposeWeightBuffering`), and "
    "`NetworkPerformance::EstimateFullOpPerformance` adds the part of that DMA (`MemToMemCycles`: DRAM latency "
    "+ bytes / bandwidth) the previous op's cycles do not hide (`slackBufferingCycles`). The mirrors charge "
    "the DRAM latency once per layer instead; the hidden part depends on the scheduler's choices. The "
    "block fill and drain is not charged to lowered steps (the unrolled strided conv, the MatMul's "
    "per-column ReduceSum, where the mirrors count only the two latencies).",
    "**Transpose and channel shuffles**: most of Vela's Transpose rows are layout transposes the ONNX-to-TFLite "
    "export writes around the rank-5 reshape of a channel shuffle (NCHW <-> NHWC), each of which regor "
    "decomposes (`scheduler_decompose.cpp` `DecomposeTranspose`: a selection sort of the axes, each swap "
    "`SwapAxes` -> one to five 3-D transposes) and costs by memory access with burst factors "
    "(`MeasureCycleCost`, Compound branch; `EstimateMemoryTransfer`); the ONNX graph has one Transpose per "
    "shuffle and the mirrors price one memory round trip.",
    "**Explicit padding Vela cannot fold**: TFLite has only SAME/VALID padding, so the export writes a PAD "
    "before a MaxPool or a grouped conv whose ONNX pads differ from SAME; `GraphIrOptimiser::"
    "ReplacePadByExplicitPadding` folds it only into a following convolution, and `RewritePad` otherwise fills "
    "each padded side with a MemoryCopy from a constant in flash/DRAM. The mirrors price the pooling or conv "
    "without those fills.",
    "**NHCWB16 rounding**: Vela stores some int32 intermediates of the lowered Softmax in NHCWB16, which "
    "rounds their channels up to 16; the mirror prices the plain element counts.",
    "**Intermediate tensors in DRAM on the U65** (the MatMul's int32 scratch, tensors a CPU layer hands back, "
    "feature maps that do not fit the 384 KiB cache): the mirror keeps an op's tensors in SRAM when its input "
    "and output fit.",
    "**HardSigmoid** (MobileNetV3's squeeze-excite gate): TFLite has no HARD_SIGMOID; the float exporter has no "
    "lowering for it and the mirrors place it on the host, so that model is skipped.",
)


def mechanism_lines() -> list[str]:
    out = ["", "## What the mirrors model from Vela's source", "",
           "Each mechanism below is taken from Vela 5.2.0's own code (regor, the C++ core in the `ethos-u-vela` "
           "source distribution) and configuration, cited in the mirror's target file (`[sources]`) and in "
           "`npuready/cost`; none is a constant fitted to Vela's output. Where one target field switches it "
           "off, the ablation of the previous section is named.", "",
           "| mechanism | ablation | Vela source and what the mirror does |", "|---|---|---|"]
    out += [f"| {name} | {ablation} | {text} |" for name, ablation, text in MODELLED]
    return out


def open_lines() -> list[str]:
    return ["", "Mechanisms behind the remaining gaps, found in Vela 5.2.0's source and not modelled:", ""] + \
        [f"- {text}" for text in OPEN]
