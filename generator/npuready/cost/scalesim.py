"""SCALE-Sim 3.0.0 adapter — validation only: turn conv/FC nodes into a SCALE-Sim topology, run it in
its isolated environment (``.venv-scalesim``, made by ``tools/scalesim_env.sh``; SCALE-Sim 3.0.0 needs
numpy<2.3) and parse ``COMPUTE_REPORT.csv``.

Mapping (chosen so SCALE-Sim sees the same GEMM the ONNX node computes):
- Conv: SCALE-Sim has no padding and computes ``OH = ceil((H - R) / stride) + 1``; we give it the input
  extent the node really reads, ``H' = (OH - 1) * stride + R``, so its OH/OW equal ONNX's.
- Gemm/MatMul: a 1x1 conv over an M x 1 "image" with K channels and N filters.
- Grouped/depthwise conv: SCALE-Sim's own ``DP`` convention runs one single-channel layer per channel;
  the channels are identical, so we run one group and count it ``repeat = groups`` times.

Only ``Total Cycles`` (compute cycles without the DRAM prefetch) is compared; the configuration gives
the SRAMs enough space and bandwidth that the report shows zero stall cycles.
"""
from __future__ import annotations

import csv
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from npuready.cost.workload import Workload, workload
from npuready.errors import InputError
from npuready.graph import Graph, Node

VENV = ".venv-scalesim"
_SRAM_KB = 65536  # large enough for every example layer: no SRAM-capacity stalls
_BANDWIDTH = 1000  # words/cycle of the USER-mode interface: no bandwidth stalls


@dataclass(frozen=True)
class SimLayer:
    name: str  # ONNX node name
    ifmap_h: int
    ifmap_w: int
    filter_h: int
    filter_w: int
    channels: int
    filters: int
    stride: int
    repeat: int  # identical layers this row stands for (groups)


def sim_layer(graph: Graph, node: Node) -> SimLayer | None:
    """The SCALE-Sim topology row for a conv/FC node, or None when SCALE-Sim cannot express it."""
    w: Workload = workload(graph, node)
    if w.kind not in ("gemm", "depthwise") or not w.shapes_known or not w.macs:
        return None
    if node.op_type == "Conv":
        y = graph.info(node.outputs[0]).shape
        wshape = graph.info(node.inputs[1]).shape
        strides = list(node.attr("strides", [1, 1]))
        dil = list(node.attr("dilations", [1, 1]))
        if len(y) != 4 or len(set(strides)) != 1 or any(d != 1 for d in dil) or y[0] != 1:
            return None
        s, (kh, kw) = strides[0], wshape[2:]
        return SimLayer(node.name, (y[2] - 1) * s + kh, (y[3] - 1) * s + kw, kh, kw, w.cin_per_group, w.n, s, w.groups)
    if node.op_type in ("Gemm", "MatMul"):
        return SimLayer(node.name, w.m, 1, 1, 1, w.k, w.n, 1, w.groups)
    return None


def _topology(layers: list[SimLayer]) -> str:
    rows = ["Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,"]
    for i, l in enumerate(layers):
        rows.append(f"layer{i}, {l.ifmap_h}, {l.ifmap_w}, {l.filter_h}, {l.filter_w}, {l.channels}, {l.filters}, "
                    f"{l.stride},")
    return "\n".join(rows) + "\n"


def _layout(n: int) -> str:
    # SCALE-Sim 3 reads a layout CSV even when custom layouts are off: name, 6 factors, 16 orders.
    header = "Layer name," + ",".join(f"f{i}" for i in range(22)) + ","
    body = [f"layer{i}," + ",".join(["1"] * 6 + [str(j) for j in range(16)]) + "," for i in range(n)]
    return "\n".join([header] + body) + "\n"


def _config(rows: int, cols: int) -> str:
    return f"""[general]
run_name = npuready

[architecture_presets]
ArrayHeight = {rows}
ArrayWidth = {cols}
ifmapsramszkB = {_SRAM_KB}
filtersramszkB = {_SRAM_KB}
ofmapsramszkB = {_SRAM_KB}
IfmapOffset = 0
FilterOffset = 10000000
OfmapOffset = 20000000
Bandwidth = {_BANDWIDTH}
Dataflow = os
ReadRequestBuffer = 32
WriteRequestBuffer = 32

[layout]
IfmapCustomLayout = False
IfmapSRAMBankBandwidth = 10
IfmapSRAMBankNum = 10
IfmapSRAMBankPort = 2
FilterCustomLayout = False
FilterSRAMBankBandwidth = 10
FilterSRAMBankNum = 10
FilterSRAMBankPort = 2

[sparsity]
SparsitySupport = false
SparseRep = ellpack_block
OptimizedMapping = false
BlockSize = 8
RandomNumberGeneratorSeed = 40

[run_presets]
InterfaceBandwidth = USER
UseRamulatorTrace = False
"""


def python_path(repo: Path) -> Path | None:
    p = repo / VENV / "bin" / "python"
    return p if p.exists() else None


def version(python: Path) -> str:
    out = subprocess.run([str(python), "-c", "import importlib.metadata as m; print(m.version('scalesim'))"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def run(layers: list[SimLayer], rows: int, cols: int, workdir: Path, python: Path) -> list[dict]:
    """Run SCALE-Sim on ``layers`` (OS dataflow, rows x cols) and return the parsed COMPUTE_REPORT rows."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "scale.cfg").write_text(_config(rows, cols))
    (workdir / "topology.csv").write_text(_topology(layers))
    (workdir / "layout.csv").write_text(_layout(len(layers)))
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    proc = subprocess.run([os.path.abspath(python), "-m", "scalesim.scale", "-c", "scale.cfg", "-t", "topology.csv",
                           "-l", "layout.csv", "-p", "out"], cwd=workdir, capture_output=True, text=True, env=env)
    report = workdir / "out" / "npuready" / "COMPUTE_REPORT.csv"
    if proc.returncode != 0 or not report.exists():
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise InputError(f"SCALE-Sim run in {workdir} failed (exit {proc.returncode}): {tail[0]}")
    return parse_compute_report(report)


def parse_compute_report(path: Path) -> list[dict]:
    """Rows of SCALE-Sim's COMPUTE_REPORT.csv as dicts with snake_case keys and numbers."""
    keys = {"LayerID": "layer_id", "Total Cycles (incl. prefetch)": "total_cycles_incl_prefetch",
            "Total Cycles": "total_cycles", "Stall Cycles": "stall_cycles", "Overall Util %": "overall_util_pct",
            "Mapping Efficiency %": "mapping_efficiency_pct", "Compute Util %": "compute_util_pct"}
    text = Path(path).read_text()
    reader = csv.reader(line for line in text.splitlines() if line.strip())
    header = [h.strip() for h in next(reader)]
    missing = [k for k in keys if k not in header]
    if missing:
        raise InputError(f"{path}: not a SCALE-Sim COMPUTE_REPORT (missing columns {', '.join(missing)})")
    out = []
    for row in reader:
        cells = dict(zip(header, (c.strip() for c in row)))
        item = {}
        for src, dst in keys.items():
            value = float(cells[src])
            integral = dst in ("layer_id", "total_cycles", "total_cycles_incl_prefetch", "stall_cycles")
            item[dst] = int(value) if integral else value
        out.append(item)
    return out
