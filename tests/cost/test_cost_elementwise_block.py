"""The elementwise block and constant-operand reads of the Ethos-U mirrors (regor FindBlockConfig /
EstimateMemoryTransfer): exact integers on small shapes."""
import onnx
from onnx import TensorProto, helper, numpy_helper
import numpy as np

from npuready.cost import estimate
from npuready.graph import load  # canonical=False: the BatchNormalization as written (the importer would lower it)
from npuready.cost.elementwise_block import constant_read_bytes, elementwise_block
from npuready.targets import load_target

U55 = ((1, 2, 8), 4096)  # micro-block, elementwise block bytes of the ethos-u55-128 mirror
U65 = ((2, 2, 8), 8192)


def test_block_prefers_the_shallowest_depth_of_the_largest_volume():
    # equal volumes: the first found in (depth, height, width) order wins unless it is at most 4 x 4
    assert elementwise_block((32, 32, 64), *U55) == (8, 32, 16)
    assert elementwise_block((8, 8, 256), *U55) == (8, 8, 64)
    assert elementwise_block((16, 16, 128), *U65) == (16, 16, 32)


def test_constant_read_bytes_follow_the_burst_of_the_block_depth():
    # depth 16 -> 16-byte bursts against 128-byte ones: 8 bytes per output element
    assert constant_read_bytes((32, 32, 64), 64, *U55, 128) == 524288
    assert constant_read_bytes((8, 8, 256), 256, *U55, 128) == 32768  # depth 64: 2 bytes per element
    assert constant_read_bytes((4, 4, 512), 512, *U55, 128) == 8192  # depth >= 128: one byte per element
    assert constant_read_bytes((16, 16, 128), 128, *U65, 128) == 131072


def _bn_after_concat(c: int, hw: int) -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal(c).astype(np.float32) + (2.0 if n == "var" else 0.0), n)
             for n in ("scale", "bias", "mean", "var")]
    nodes = [helper.make_node("Concat", ["x", "x"], ["a"], name="cat", axis=1),
             helper.make_node("BatchNormalization", ["a", "scale", "bias", "mean", "var"], ["y"], name="bn")]
    g = helper.make_graph(nodes, "bn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c // 2, hw, hw])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, c, hw, hw])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def test_unfolded_batchnorm_reads_both_constants_from_flash_on_u55():
    layer = next(lc for lc in estimate(load(_bn_after_concat(64, 32), canonical=False), "ethos-u55-128").layers
                 if lc.node == "bn")
    # Mul and Add each read 65536 elements x 8 bytes from the 1 byte/cycle flash, plus 64 cycles latency each
    assert layer.dram_bytes == 2 * 524288
    assert layer.cycles == 2 * (524288 + 64)


def test_targets_without_the_fields_read_no_constant_bytes():
    layer = next(lc for lc in estimate(load(_bn_after_concat(64, 32), canonical=False), "edge-10").layers
                 if lc.node == "bn")
    assert load_target("edge-10").elementwise_block_bytes == 0
    assert layer.dram_bytes == 0


def test_int32_zero_tensor_of_a_double_broadcast():
    # softmax over 4 heads x 49 x 49: regor adds an OFM-sized int32 zero constant; its 16-deep block bursts
    # 64 bytes against 128-byte flash bursts, so 9604 elements x 4 bytes move twice
    assert elementwise_block((1, 196, 49), (1, 2, 8), 4096 // 4) == (1, 64, 16)
    assert constant_read_bytes((1, 196, 49), 49, *U55, 128, elem_bytes=4) == 9604 * 4 * 2
