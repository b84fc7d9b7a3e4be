from npuready.targets import load_target
from npuready.targets.load import DATA_DIR, recording_loads


def test_every_load_inside_the_block_is_recorded_even_when_cached():
    load_target("edge-10")  # cached before the block
    with recording_loads() as seen:
        load_target("edge-10")
        load_target("tiny-1")
    assert seen == {DATA_DIR / "edge-10.toml", DATA_DIR / "tiny-1.toml"}
    with recording_loads() as later:
        pass
    assert later == set()


def test_nested_blocks_both_see_a_load():
    with recording_loads() as outer:
        with recording_loads() as inner:
            load_target("pcie-80")
    assert outer == inner == {DATA_DIR / "pcie-80.toml"}
