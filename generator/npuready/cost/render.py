"""Render a ``CostReport`` as text (a table per layer + totals) or JSON. Rendering only, no figures made here."""
from __future__ import annotations

from npuready.atomic import dumps_json
from npuready.cost.report import BASIS, CostReport
from npuready.graph.shapes_text import shapes_line


def to_json(report: CostReport) -> str:
    return dumps_json(report.to_dict())


def _si(value: float, unit: str) -> str:
    for factor, prefix in ((1e-9, "n"), (1e-6, "µ"), (1e-3, "m"), (1.0, "")):
        if abs(value) < factor * 1000 or prefix == "":
            return f"{value / factor:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


def to_text(report: CostReport, all_layers: bool = False) -> str:
    t = report.total()
    lines = [
        f"npuready cost — {report.model} on {report.target} (SIMULATED: {BASIS})",
        f"placement: {report.placement_source}",
        "",
        f"{'node':<28} {'op':<18} {'dev':<4} {'M':>6} {'K':>6} {'N':>5} {'tiles':>6} {'compute':>9} "
        f"{'memory':>9} {'cycles':>9} {'bound':<7} {'util':>6} {'SRAM B':>9} {'DRAM B':>9} {'µJ':>8}",
    ]
    for layer in report.layers:
        if not all_layers and layer.cycles == 0 and layer.device != "cpu":
            continue
        lines.append(
            f"{layer.node[:28]:<28} {layer.op_type[:18]:<18} {layer.device:<4} {layer.m:>6} {layer.k:>6} {layer.n:>5} "
            f"{layer.tiles:>6} {layer.compute_cycles:>9} {layer.memory_cycles:>9} {layer.cycles:>9} {layer.bound:<7} "
            f"{layer.utilisation:>6.1%} {layer.sram_bytes:>9} {layer.dram_bytes:>9} {layer.energy_uj:>8.3f}")
    hidden = sum(1 for layer in report.layers if layer.cycles == 0 and layer.device != "cpu")
    if hidden and not all_layers:
        lines.append(f"({hidden} free/fused/folded nodes with 0 cycles not shown; --all-layers shows them)")
    for tr in report.transfers:
        lines.append(f"transfer {tr.direction} {tr.tensor}: {tr.bytes} B, {_si(tr.seconds, 's')}")
    lines += [
        "",
        f"total (simulated): {t['cycles']} cycles = {_si(t['latency_s'], 's')} "
        f"-> {t['inferences_per_s']:.1f} inferences/s" if t["inferences_per_s"] else "total: 0 cycles",
        f"  NPU {t['npu_cycles']} cycles at {report.clock_mhz:g} MHz, MAC utilisation {t['npu_utilisation']:.1%}, "
        f"{t['macs']} MACs; host {_si(t['host_s'], 's')} on {t['layers_cpu']} CPU node(s); "
        f"transfers {t['transfer_bytes']} B ({_si(t['transfer_s'], 's')})",
        f"  memory: {t['sram_bytes']} B SRAM, {t['dram_bytes']} B DRAM; energy {t['energy_uj']:.3f} µJ; "
        f"{t['compute_bound']} compute-bound, {t['memory_bound']} memory-bound layer(s)",
    ]
    if report.shapes:
        lines.append(shapes_line(report.shapes))
    lines += [f"note: {n}" for n in report.notes]
    return "\n".join(lines) + "\n"
