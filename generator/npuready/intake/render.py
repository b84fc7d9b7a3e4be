"""Render an intake report as text or JSON."""
from __future__ import annotations

from npuready.atomic import dumps_json
from npuready.intake.report import IntakeReport
from npuready.terminal import Column, block, table

SHOW = 8  # findings / risks listed in text before "… and N more"
HOTSPOTS = [Column("node", 26, "<"), Column("op", 14, "<"), Column("dev", 4, "<"), Column("cycles", 10),
            Column("share", 6), Column("bound", 7, "<")]


def _pct(v) -> str:
    return "—" if v is None else f"{100 * v:.1f}%"


def _num(v) -> str:
    return "—" if v is None else f"{v:,}"


def render_text(report: IntakeReport, width: int | None = None) -> str:
    """The report for people: wrapped to ``width`` columns (default: the terminal's, 80 when not a terminal)."""
    d = report.to_dict()
    diag = d["diagnosis"]
    lines = [f"Intake report: {report.model} on {diag['target']}"
             + (f" (zoo: {report.zoo_name})" if report.zoo_name else ""),
             f"  file {report.path}  sha256 {report.sha256[:16]}…",
             "  inputs: " + ", ".join(f"{i['name']} {i['shape']} {i['dtype']}" for i in diag["inputs"]),
             "", "DIAGNOSIS"]
    s = diag["lint"]["summary"]
    lines.append(f"  lint: {s['errors']} ERROR, {s['warnings']} WARN"
                 + ("  → deployment blocked" if diag["lint"]["blocked"] else ""))
    errors = [f for f in diag["lint"]["findings"] if f["severity"] == "ERROR"]
    for f in errors[:SHOW]:
        lines.append(f"    {f['rule']} {f['node']} ({f['op_type']}): {f['message']}")
    if len(errors) > SHOW:
        lines.append(f"    … and {len(errors) - SHOW} more ERROR(s) (--format json lists all)")
    warn = [f for f in diag["lint"]["findings"] if f["severity"] == "WARN"]
    if warn:
        rules = sorted({f["rule"] for f in warn})
        lines.append(f"    WARN: {len(warn)} finding(s) of {', '.join(rules)} (see `npuready lint`)")
    p = diag["partition"]
    lines.append(f"  partition: {p['verdict_text']}")
    if p.get("missing_cpu_code"):
        missing = p["missing_cpu_code"]
        more = f" … and {len(missing) - SHOW} more" if len(missing) > SHOW else ""
        lines.append(f"    missing CPU code for: {', '.join(missing[:SHOW])}{more}")
    c = diag["cost"]
    if "error" in c:
        lines.append(f"  cost: not estimated ({c['error']})")
    else:
        lines.append(f"  cost (simulated): {_num(c['cycles'])} cycles, {c['latency_s'] * 1e6:.1f} µs, "
                     f"{_num(c['macs'])} MACs, NPU utilisation {_pct(c['npu_utilisation'])}")
        lines.append("  hot spots (top layers by simulated cycles):")
        rows = [[h["node"], h["op_type"], h["device"], _num(h["cycles"]), _pct(h["share"]), h["bound"]]
                for h in diag["hotspots"]]
        lines += table(HOTSPOTS, rows, width, indent="    ")[0]
    lines.append(f"  quantisation risks: {len(diag['risks'])}")
    for r in diag["risks"][:SHOW]:
        lines.append(f"    [{r['level']}] {r['kind']} {r['node']}: {r['message']}")
    if len(diag["risks"]) > SHOW:
        lines.append(f"    … and {len(diag['risks']) - SHOW} more (--format json lists all)")
    gaps = [r for r in diag["risks"] if r["kind"] == "integer-coverage"]
    if gaps:
        ops = sorted({r["op_type"] for r in gaps})
        lines.append(f"  integer engine / INT8 TFLite coverage: {len(gaps)} node(s) not runnable yet "
                     f"({', '.join(ops)}): 'npuready verify' or its --litert check stops there (docs/ops.md)")
    lines += ["", "PRESCRIPTION (in order)"]
    for a in d["prescription"]:
        tag = " [auto with --apply]" if a["automatic"] else ""
        tag += "" if a["recommended"] else " [advised against]"
        lines.append(f"  {a['order']}. {a['title']}{tag}")
        lines.append(f"     why: {a['why']}")
        lines.append(f"     expected ({a['evidence']}): {a['expected']}")
    out = d["applied"]
    if out:
        lines += ["", f"APPLIED: {', '.join(out['applied']) or 'nothing automatic'} "
                      f"(accuracy measured on {out['eval_images']} images of the {out['eval_set']}; cycles simulated)"]
        for sw in out["swaps"][:6]:
            lines.append(f"  swap {sw['where']}: {sw['old']} → {sw['new']}")
        if len(out["swaps"]) > 6:
            lines.append(f"  … and {len(out['swaps']) - 6} more swaps")
        lines.append(f"  {'stage':<15} {'lint ERR':>8} {'cycles':>10} {'float':>7} {'fake-q':>7} {'integer':>7}  "
                     "settings")
        for st in out["stages"]:
            settings = ", ".join(f"{k}: {v}" for k, v in st["settings"].items())
            lines.append(f"  {st['name']:<15} {_num(st['lint_errors']):>8} {_num(st['cycles']):>10} "
                         f"{_pct(st['float_accuracy']):>7} {_pct(st['fake_quant_accuracy']):>7} "
                         f"{_pct(st['integer_accuracy']):>7}  {settings}")
        notes = sorted({st["integer_note"] for st in out["stages"] if st["integer_note"]})
        for n in notes:
            lines.append(f"  integer: {n}")
    lines += ["", f"Basis: {d['basis']}."]
    return block(lines, width)


def render(report: IntakeReport, fmt: str = "text") -> str:
    return dumps_json(report.to_dict()) if fmt == "json" else render_text(report)
