"""The SCALE-Sim adapter: topology mapping and parsing of a real COMPUTE_REPORT (no .venv-scalesim needed)."""
from pathlib import Path

import pytest

from npuready.cost import scalesim
from npuready.cost.examples import pool_net
from npuready.cost.model import gemm_mapping
from npuready.cost.workload import workload
from npuready.errors import InputError
from npuready.graph import load
from npuready.targets import load_target

DATA = Path(__file__).parent / "data"


def _layers(graph):
    return [(n, layer) for n in graph.nodes if (layer := scalesim.sim_layer(graph, n)) is not None]


def test_topology_matches_the_committed_run():
    graph = load(pool_net())
    text = scalesim._topology([layer for _, layer in _layers(graph)])
    assert text == (DATA / "scalesim_pool_net_32x32_topology.csv").read_text()


def test_sim_layer_mapping():
    graph = load(pool_net())
    pairs = dict((n.name, layer) for n, layer in _layers(graph))
    assert list(pairs) == ["conv1", "conv4", "conv7", "fc11"]
    conv = pairs["conv1"]  # 3x3 pad 1 on 32x32: SCALE-Sim sees the 34x34 extent and computes 32x32 outputs
    assert (conv.ifmap_h, conv.filter_h, conv.channels, conv.filters, conv.stride, conv.repeat) == (34, 3, 3, 32, 1, 1)
    dw = pairs["conv7"]  # depthwise on 8x8x64: one single-channel layer repeated per channel
    assert (dw.channels, dw.filters, dw.repeat) == (1, 1, 64)
    fc = pairs["fc11"]
    assert (fc.ifmap_h, fc.ifmap_w, fc.channels, fc.filters) == (1, 1, 64, 10)


def test_parse_real_report_and_formula_agrees():
    rows = scalesim.parse_compute_report(DATA / "scalesim_pool_net_32x32_COMPUTE_REPORT.csv")
    assert [r["layer_id"] for r in rows] == [0, 1, 2, 3]
    assert all(r["stall_cycles"] == 0 for r in rows)
    graph = load(pool_net())
    t = load_target("tiny-1")  # 32x32 array, as in the committed run
    assert (t.array_rows, t.array_cols, t.engine) == (32, 32, "systolic-os")
    for (node, layer), row in zip(_layers(graph), rows):
        ours = gemm_mapping(workload(graph, node), t).cycles
        assert ours == row["total_cycles"] * layer.repeat, node.name


def test_parse_rejects_other_csv(tmp_path):
    bad = tmp_path / "x.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="not a SCALE-Sim COMPUTE_REPORT"):
        scalesim.parse_compute_report(bad)
