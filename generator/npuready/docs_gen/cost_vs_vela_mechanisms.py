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
)

OPEN = (
    "**Weight compression** (deep layers on the Ethos-U55, weights in 0.5 GB/s flash): Vela streams its "
    "encoded weights (`total_npu_encoded_weights` in each row's `vela_summary`, well below the original size "
    "for these random weights); the encoded size depends on the weight values, which the cost model, reading "
    "shapes only, does not see, so weight-bound convs cost the mirror more than Vela. Not fitted: a "
    "compression ratio taken from Vela's output would be a constant fitted to it.",
    "**Weight prefetch and per-op fixed costs** (small layers, chiefly on the Ethos-U65): "
    "`EstimateFullOpPerformance` adds a layer's first weight DMA unless the previous layer left slack to "
    "prefetch it, and `EstimateMacOpCycles` adds the first IFM block's read, the last OFM block's write and "
    "one block of output stage; both depend on the scheduler's block and slack choices, which the mirror does "
    "not reproduce (it pays one DRAM latency per layer instead).",
    "**Transpose and channel shuffles**: most of Vela's Transpose rows are layout transposes the ONNX-to-TFLite "
    "export writes around rank-5 reshapes (NCHW <-> NHWC) plus Vela's decomposition of a 5-D permutation into "
    "4-D ones; the ONNX graph has one Transpose per shuffle and the mirror prices one memory round trip. A "
    "Gather the mirror sends to the host (not in its op table) is a CPU Passthrough in Vela too, but the export's "
    "layout transposes before it are merged into its row, hence the zero-cost rows.",
    "**NHCWB16 rounding**: Vela stores some int32 intermediates of the lowered Softmax in NHCWB16, which "
    "rounds their channels up to 16; the mirror prices the plain element counts.",
    "**Intermediate tensors in DRAM on the U65** (the MatMul's int32 scratch, feature maps that do not fit "
    "the 384 KiB cache): the mirror keeps an op's tensors in SRAM when its input and output fit.",
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
