"""Analytic per-layer NPU cost model (simulated figures) and validation adapters (SCALE-Sim, Vela)."""
from npuready.cost.model import estimate
from npuready.cost.report import CostReport, LayerCost, Transfer

__all__ = ["CostReport", "LayerCost", "Transfer", "estimate"]
