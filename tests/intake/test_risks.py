"""Quantisation risks: per-channel weight range ratio, dead channels, unfoldable norms, table activations."""
from __future__ import annotations

import pytest

from intake_models import conv_net, gemm_no_transpose
from npuready.graph import load
from npuready.intake.risks import MIN_LEVELS, quant_risks
from npuready.partition.examples import transformer_like
from npuready.targets import load_target


def _risks(m, target="edge-10"):
    return quant_risks(load(m), load_target(target))


def test_wide_per_channel_range_is_flagged_with_its_ratio():
    [risk] = [r for r in _risks(conv_net(channel_max=[0.05, 0.1, 0.2, 1.0])) if r.kind == "wide-weight-range"]
    assert (risk.node, risk.level) == ("conv1", "high")
    assert risk.evidence["ratio"] == pytest.approx(20.0, rel=1e-6)
    assert risk.evidence["narrowest_levels_per_tensor"] == pytest.approx(127 / 20, abs=1e-3)
    assert risk.evidence["channels"] == 4 and risk.evidence["limit_levels"] == MIN_LEVELS


def test_ratio_within_limit_is_not_flagged_and_dead_channel_is():
    risks = _risks(conv_net(channel_max=[0.0, 0.5, 1.0, 2.0]))
    assert [r.kind for r in risks if r.node == "conv1"] == ["dead-channel"]
    dead = next(r for r in risks if r.kind == "dead-channel")
    assert dead.evidence == {"dead_channels": 1, "channels": 4}


def test_gemm_without_transpose_uses_columns_as_channels():
    [risk] = _risks(gemm_no_transpose())
    assert risk.kind == "wide-weight-range" and risk.evidence["ratio"] == 50.0 and risk.evidence["channels"] == 4


@pytest.mark.parametrize("target, level, mode", [("edge-10", "info", "lut"), ("edge-10-nolut", "high", "host")])
def test_table_activation_depends_on_the_target(target, level, mode):
    [risk] = [r for r in _risks(conv_net("Sigmoid"), target) if r.kind == "table-activation"]
    assert (risk.node, risk.level, risk.evidence["mode"]) == ("act1", level, mode)


def test_unfoldable_norms_come_from_r006():
    risks = [r for r in _risks(transformer_like()) if r.kind == "unfoldable-norm"]
    assert [r.node for r in risks] == ["blk0_layernorm", "blk1_layernorm"]
    assert all(r.evidence["rule"] == "R006" for r in risks)
