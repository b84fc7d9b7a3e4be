"""Parsing onnxruntime's verbose QNN log (lines captured from onnxruntime-qnn 2.7.0 on a Conv → Erf → Relu QDQ
model)."""
from __future__ import annotations

from pathlib import Path

from npuready.vendor.qnn_log import Refusal, parse

LOG = (Path(__file__).parent / "data" / "qnn_erf_verbose.log").read_text()


def test_refused_nodes_carry_the_qnn_reason_once_per_node():
    assert parse(LOG).refused == (Refusal("erf", "Erf", "Operators of type `Erf` are not supported by QNN EP."),)


def test_the_final_placement_block_gives_partitions_and_cpu_nodes():
    p = parse(LOG)
    assert p.partitions == 2
    assert p.cpu_nodes == (("QuantizeLinear", "input_QuantizeLinear"), ("Erf", "erf"))


def test_a_log_without_placements_reads_as_nothing_placed():
    assert parse("no placements here").to_dict() == {"qnn_partitions": 0, "cpu_nodes": [], "refused": []}
