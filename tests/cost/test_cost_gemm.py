"""Cycle formulas against hand-derived values."""
from npuready.cost.gemm import dot_product_cycles, systolic_os_cycles


def test_systolic_os_single_fold():
    # M=10 <= 32 rows, N=10 <= 32 cols: one fold of K + R + C - 2 cycles, minus SCALE-Sim's final cycle
    m = systolic_os_cycles(m=10, k=64, n=10, rows=32, cols=32)
    assert (m.row_tiles, m.col_tiles, m.tiles) == (1, 1, 1)
    assert m.cycles == 1 * (64 + 32 + 32 - 2) - 1


def test_systolic_os_folds_and_groups():
    # ResNet stem on 32x32: M=1024, K=27, N=16 on 64x64 -> 16 x 1 folds of 27+126 cycles
    m = systolic_os_cycles(m=1024, k=27, n=16, rows=64, cols=64)
    assert (m.row_tiles, m.col_tiles) == (16, 1)
    assert m.cycles == 16 * (27 + 64 + 64 - 2) - 1 == 2447
    g = systolic_os_cycles(m=64, k=9, n=1, rows=32, cols=32, groups=5)
    assert g.cycles == 5 * (2 * (9 + 62) - 1)
    assert g.tiles == 5 * 2


def test_systolic_os_cores_share_folds():
    one = systolic_os_cycles(m=1024, k=144, n=128, rows=64, cols=64, cores=1)
    two = systolic_os_cycles(m=1024, k=144, n=128, rows=64, cols=64, cores=2)
    assert one.cycles == 32 * (144 + 126) - 1
    assert two.cycles == 16 * (144 + 126) - 1


def test_dot_product_depth_first_and_part_kernel():
    # 3x3 conv, Cin=64, 8x8 output, 64 filters on 2x8 micro-blocks, dot width 8, 32-channel blocks
    m = dot_product_cycles(m=64, n=64, kernel=9, cin=64, rows=2, cols=8, dot_width=8, channel_block=32)
    assert m.cycles == 8 * (9 * 2) * (32 // 8) * 32  # col tiles x steps x step cycles x row tiles
    # Cin=3: depth first would take 9 steps of 4 cycles; kernel first packs 4 kernel elements: 3 steps of 4
    first = dot_product_cycles(m=1024, n=16, kernel=9, cin=3, rows=2, cols=8, dot_width=8, channel_block=32,
                               part_kernel_step=4)
    assert first.k_steps == 3 * 1 * 4
    assert first.cycles == 2 * 12 * 512


def test_dot_product_weight_load_floor():
    # FC 320 -> 10 on one output pixel: 2 column tiles x 10 channel blocks, each at least 32 cycles
    m = dot_product_cycles(m=1, n=10, kernel=1, cin=320, rows=4, cols=8, dot_width=8, channel_block=32, weight_load=32)
    assert m.cycles == 2 * 10 * 32
    narrow = dot_product_cycles(m=1, n=10, kernel=1, cin=320, rows=4, cols=8, dot_width=8, channel_block=32)
    assert narrow.cycles == 2 * 10 * 4
