"""The analytic model on known layers: every expected value is derived here from the formula and the
target's own fields (no result numbers typed by hand)."""
import dataclasses
import math

import numpy as np
import onnx
from onnx import helper

from npuready.cost import estimate
from npuready.targets import load_target


def test_conv_on_systolic_target(conv_relu):
    t = load_target("edge-10")
    r = estimate(conv_relu, t)
    conv, relu = r.layers
    m, k, n = 16 * 16, 16 * 9, 32
    folds = math.ceil(m / t.array_rows) * math.ceil(n / t.array_cols)
    assert (conv.m, conv.k, conv.n, conv.tiles) == (m, k, n, folds)
    assert conv.compute_cycles == folds * (k + t.array_rows + t.array_cols - 2) - 1
    acts = 16 * 16 * 16 + 32 * 16 * 16  # int8 input + output, both fit in SRAM
    weights = 32 * 16 * 9 + 4 * 32  # int8 weights + int32 bias from DRAM
    hz = t.clock_mhz * 1e6
    assert conv.sram_bytes == acts and conv.dram_bytes == weights
    assert conv.memory_cycles == math.ceil(max(weights / (t.dram_gbps * 1e9 / hz), acts / (t.sram_gbps * 1e9 / hz)))
    assert conv.cycles == max(conv.compute_cycles, conv.memory_cycles) and conv.bound == "compute"
    assert conv.macs == m * k * n
    assert conv.utilisation == conv.macs / (conv.cycles * t.macs_per_cycle)
    e = t.energy
    assert math.isclose(conv.energy_uj, (conv.macs * e["pj_per_mac"] + acts * e["pj_per_sram_byte"]
                                         + weights * e["pj_per_dram_byte"]) / 1e6)
    assert (relu.kind, relu.cycles, relu.bound) == ("fused", 0, "none")
    assert r.total()["cycles"] == conv.cycles
    assert r.total()["latency_s"] == round(conv.cycles / hz, 12)


def test_conv_on_dot_product_mirror(conv_relu):
    # the MAC and output stages alone; one byte per weight (the encoded stream: test_cost_weight_stream)
    t = dataclasses.replace(load_target("ethos-u55-128"), shram_banks=0, weight_codec="")
    conv = estimate(conv_relu, t).layers[0]
    row_tiles, col_tiles = math.ceil(256 / t.array_rows), math.ceil(32 / t.array_cols)
    depth_first = 9 * math.ceil(16 / t.channel_block) * (t.channel_block // t.dot_width)
    part_kernel = math.ceil(9 / t.part_kernel_step) * math.ceil(16 / t.dot_width) * t.part_kernel_step
    mac_cycles = col_tiles * row_tiles * min(depth_first, part_kernel)
    output_stage = math.ceil(32 * 16 * 16 / t.output_elems_per_cycle)
    assert conv.compute_cycles == max(mac_cycles, output_stage)
    weights = 32 * 16 * 9 + 4 * 32
    flash = math.ceil(weights / (t.dram_gbps * 1e9 / (t.clock_mhz * 1e6)))
    sram = math.ceil((16 * 256 + 32 * 256) / (t.sram_gbps * 1e9 / (t.clock_mhz * 1e6)))
    assert conv.memory_cycles == max(flash, sram)
    assert conv.cycles == max(conv.compute_cycles, conv.memory_cycles) + t.dram_latency_cycles


def _depthwise_model(h):
    make_model, vi, weight = h.make_model, h.vi, h.weight
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="dw", kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=8)]
    return make_model(nodes, [vi("x", [1, 8, 8, 8])], [vi("y", [1, 8, 8, 8])], [weight("w", [8, 1, 3, 3])])


def test_depthwise_engine_vs_array(onnx_helpers):
    with_engine, without = load_target("edge-10"), load_target("edge-10-nolut")
    a = estimate(_depthwise_model(onnx_helpers), with_engine).layers[0]
    b = estimate(_depthwise_model(onnx_helpers), without).layers[0]
    assert a.kind == b.kind == "depthwise"
    assert a.compute_cycles == math.ceil(8 * 64 * 9 / with_engine.vector_lanes)
    # no engine: 8 single-channel GEMMs (M=64, K=9, N=1) on the 64x64 array, one fold each
    assert b.compute_cycles == 8 * (1 * (9 + without.array_rows + without.array_cols - 2) - 1)


def test_pool_add_and_host_fallback(onnx_helpers):
    make_model, vi = onnx_helpers.make_model, onnx_helpers.vi
    nodes = [helper.make_node("MaxPool", ["x"], ["p"], name="pool", kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("Add", ["p", "p"], ["a"], name="add"),
             helper.make_node("Sigmoid", ["a"], ["y"], name="sig")]
    model = make_model(nodes, [vi("x", [1, 8, 16, 16])], [vi("y", [1, 8, 8, 8])])
    t = load_target("edge-10-nolut")
    assert not t.runs_on_npu("Sigmoid")
    r = estimate(model, t)
    pool, add, sig = r.layers
    assert pool.compute_cycles == math.ceil(8 * 64 * 4 / t.vector_lanes)
    assert add.compute_cycles == math.ceil(8 * 64 / t.vector_lanes)
    assert (sig.device, sig.bound) == ("cpu", "host")
    flops = 8 * 64 * 4  # Sigmoid: 4 host FLOPs per element
    assert sig.host_s == flops / (t.host_gflops * 1e9)
    assert [(tr.tensor, tr.direction, tr.bytes) for tr in r.transfers] == [("a", "npu→cpu", 8 * 64)]
    total = r.total()
    assert total["layers_cpu"] == 1
    assert total["latency_s"] == round((pool.cycles + add.cycles) / (t.clock_mhz * 1e6) + sig.host_s
                                       + 8 * 64 / (t.host_link_gbps * 1e9), 12)
    # the same graph on edge-10 runs Sigmoid through the lookup table on the NPU
    lut = estimate(model, "edge-10").layers[2]
    assert (lut.device, lut.note) == ("npu", "lookup table")


def test_qdq_model_costs_like_float(conv_relu):
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    import tempfile, os

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.items = iter([{"x": np.random.default_rng(i).standard_normal((1, 16, 16, 16)).astype(np.float32)}
                               for i in range(2)])

        def get_next(self):
            return next(self.items, None)

    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "f.onnx"), os.path.join(tmp, "q.onnx")
        onnx.save(conv_relu, src)
        quantize_static(src, dst, Reader(), quant_format=QuantFormat.QDQ, activation_type=QuantType.QInt8,
                        weight_type=QuantType.QInt8)
        q = estimate(dst, "edge-10")
    f = estimate(conv_relu, "edge-10")
    qconv = [l for l in q.layers if l.op_type == "Conv"][0]
    fconv = f.layers[0]
    assert (qconv.m, qconv.k, qconv.n, qconv.compute_cycles) == (fconv.m, fconv.k, fconv.n, fconv.compute_cycles)
    assert all(l.cycles == 0 for l in q.layers if l.op_type in ("QuantizeLinear", "DequantizeLinear"))
    assert q.npu_cycles == f.npu_cycles


def test_json_contract(conv_relu):
    d = estimate(conv_relu, "tiny-1").to_dict()
    assert d["evidence"] == "simulated"
    assert isinstance(d["total"]["cycles"], int) and d["total"]["latency_s"] > 0
    assert [(l["node"], l["op_type"], l["bound"]) for l in d["layers"]] == [("conv", "Conv", "compute"),
                                                                            ("relu", "Relu", "none")]
    assert all(isinstance(l["cycles"], int) for l in d["layers"])


def test_examples_build_and_cover_the_kinds():
    from npuready.cost.examples import EXAMPLES

    kinds = set()
    for name, build in EXAMPLES.items():
        model = build()
        onnx.checker.check_model(model, full_check=True)
        kinds |= {l.kind for l in estimate(model, "edge-10-nolut").layers}
    assert {"gemm", "depthwise", "pool", "elementwise", "move", "free", "fused", "host"} <= kinds
