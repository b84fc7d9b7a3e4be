"""Operator probes: tiny graphs run on onnxruntime to record what it accepts (a CPU baseline, not NPU support)."""
from npuready.probes.catalog import PROBES
from npuready.probes.probe import BASIS, Probe, ProbeResult
from npuready.probes.run import run_all, run_probe

__all__ = ["BASIS", "PROBES", "Probe", "ProbeResult", "run_all", "run_probe"]
