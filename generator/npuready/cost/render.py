"""Render a ``CostReport`` as text (a table per layer + totals) or JSON. Rendering only, no figures made here."""
from __future__ import annotations

from npuready.atomic import dumps_json
from npuready.bytesize import counted, human
from npuready.cost.report import BASIS, CostReport
from npuready.graph.shapes_text import shapes_line
from npuready.terminal import Column, block, table

# the per-layer table; on a narrow terminal the columns with the highest ``drop`` go first
COLUMNS = [Column("node", 28, "<"), Column("op", 12, "<"), Column("dev", 4, "<"), Column("M", 6, drop=4),
           Column("K", 6, drop=4), Column("N", 5, drop=4), Column("tiles", 6, drop=5), Column("compute", 9, drop=2),
           Column("memory", 9, drop=2), Column("cycles", 9), Column("bound", 7, "<"), Column("util", 6, drop=1),
           Column("SRAM B", 9, drop=3), Column("DRAM B", 9, drop=3), Column("µJ", 8)]


def to_json(report: CostReport) -> str:
    return dumps_json(report.to_dict())


def _si(value: float, unit: str) -> str:
    for factor, prefix in ((1e-9, "n"), (1e-6, "µ"), (1e-3, "m"), (1.0, "")):
        if abs(value) < factor * 1000 or prefix == "":
            return f"{value / factor:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


def _export(dtype: str | None, nbytes: int | None) -> str:
    return f"(the NPU build; {dtype or '?'} export: {human(nbytes)})"


def _transfers(report: CostReport, t: dict) -> str:
    if not report.transfers:
        return "0 B"
    dtypes = "/".join(sorted({tr.export_dtype or "?" for tr in report.transfers}))
    return (f"{counted(t['transfer_elements'], report.transfers[0].dtype, t['transfer_bytes'])} "
            f"{_export(dtypes, t['transfer_export_bytes'])}")


def to_text(report: CostReport, all_layers: bool = False, width: int | None = None) -> str:
    """The report for people: wrapped to ``width`` columns (default: the terminal's, 80 when not a terminal)."""
    t = report.total()
    lines = [
        f"npuready cost — {report.model} on {report.target} (SIMULATED: {BASIS})",
        f"placement: {report.placement_source}",
        "",
    ]
    rows = [[layer.node, layer.op_type, layer.device, str(layer.m), str(layer.k), str(layer.n), str(layer.tiles),
             str(layer.compute_cycles), str(layer.memory_cycles), str(layer.cycles), layer.bound,
             f"{layer.utilisation:.1%}", str(layer.sram_bytes), str(layer.dram_bytes), f"{layer.energy_uj:.3f}"]
            for layer in report.layers if all_layers or layer.cycles != 0 or layer.device == "cpu"]
    shown, dropped = table(COLUMNS, rows, width)
    lines += shown
    if dropped:
        lines.append(f"(columns {', '.join(dropped)} left out to fit the terminal; --format json has them all)")
    hidden = sum(1 for layer in report.layers if layer.cycles == 0 and layer.device != "cpu")
    if hidden and not all_layers:
        lines.append(f"({hidden} free/fused/folded nodes with 0 cycles not shown; --all-layers shows them)")
    for tr in report.transfers:
        lines.append(f"transfer {tr.direction} {tr.tensor}: {counted(tr.elements, tr.dtype, tr.bytes)} "
                     f"{_export(tr.export_dtype, tr.export_bytes)}, {_si(tr.seconds, 's')}")
    lines += [
        "",
        f"total (simulated): {t['cycles']} cycles = {_si(t['latency_s'], 's')} "
        f"-> {t['inferences_per_s']:.1f} inferences/s" if t["inferences_per_s"] else "total: 0 cycles",
        f"  NPU {t['npu_cycles']} cycles at {report.clock_mhz:g} MHz, MAC utilisation {t['npu_utilisation']:.1%}, "
        f"{t['macs']} MACs; host {_si(t['host_s'], 's')} on {t['layers_cpu']} CPU node(s); "
        f"transfers {_transfers(report, t)} ({_si(t['transfer_s'], 's')})",
        f"  memory: {t['sram_bytes']} B SRAM, {t['dram_bytes']} B DRAM; energy {t['energy_uj']:.3f} µJ; "
        f"{t['compute_bound']} compute-bound, {t['memory_bound']} memory-bound layer(s)",
    ]
    if report.shapes:
        lines.append(shapes_line(report.shapes))
    lines += [f"note: {n}" for n in report.notes]
    return block(lines, width)
