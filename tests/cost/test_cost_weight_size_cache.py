"""The persistent weight-size cache (npuready.cost.weight_size_cache) and its use by
weight_stream.encoded_weight_bytes: a second process-fresh lookup reads the size from disk."""
import numpy as np
import pytest

from npuready.cost import weight_size_cache, weight_stream
from npuready.cost.model import shram, ublock
from npuready.cost.workload import workload
from npuready.targets import load_target

from .test_cost_weight_stream import _conv


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NPUREADY_CACHE", str(tmp_path))
    monkeypatch.delenv("NPUREADY_WEIGHT_SIZE_CACHE", raising=False)
    return tmp_path / "weight-sizes"


def test_key_depends_on_values_dtype_shape_and_order():
    w = np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2)
    k = weight_size_cache.key(w, (16, "depth-first", 8, (1, 1)))
    assert k == weight_size_cache.key(w.copy(), (16, "depth-first", 8, (1, 1)))
    others = [weight_size_cache.key(w + 1, (16, "depth-first", 8, (1, 1))),
              weight_size_cache.key(w.astype(np.float64), (16, "depth-first", 8, (1, 1))),
              weight_size_cache.key(w.reshape(2, 2, 3, 2), (16, "depth-first", 8, (1, 1))),
              weight_size_cache.key(w, (32, "depth-first", 8, (1, 1))),
              weight_size_cache.key(w, (16, "part-kernel", 8, (1, 1)))]
    assert len({k, *others}) == 6


def test_put_get_and_unreadable_entries(cache):
    assert weight_size_cache.get("ab" * 32) is None
    weight_size_cache.put("ab" * 32, 1234)
    assert weight_size_cache.get("ab" * 32) == 1234
    (cache / f"{'ab' * 32}.txt").write_text("garbage")
    assert weight_size_cache.get("ab" * 32) is None  # a damaged entry is a miss


def test_disabled_cache_neither_reads_nor_writes(cache, monkeypatch):
    monkeypatch.setenv("NPUREADY_WEIGHT_SIZE_CACHE", "0")
    weight_size_cache.put("cd" * 32, 5)
    assert weight_size_cache.get("cd" * 32) is None and not cache.exists()


def test_a_repeated_run_reads_sizes_from_disk(cache, monkeypatch):
    g = _conv(np.random.default_rng(4).standard_normal((24, 16, 3, 3)))
    t = load_target("ethos-u55-128")
    layer = workload(g, g.nodes[0]).weights
    weight_stream._SIZES.clear()
    first = weight_stream.encoded_weight_bytes(layer, ublock(t), shram(t))
    assert len(list(cache.glob("*.txt"))) == 1

    def must_not_encode(*args):
        raise AssertionError("encoded again despite the disk cache")

    weight_stream._SIZES.clear()  # as a new process starts
    monkeypatch.setattr(weight_stream, "_encoded_size", must_not_encode)
    assert weight_stream.encoded_weight_bytes(layer, ublock(t), shram(t)) == first
