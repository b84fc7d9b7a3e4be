"""Rendering of a sensitivity table: text for people, JSON for machines."""
from __future__ import annotations

import math

from npuready.atomic import dumps_json
from npuready.terminal import Column, block, table


def to_json(t, top: int | None = None) -> str:
    return dumps_json({"sensitivity": t.to_dict(top)})


def _db(v) -> str:
    return "-" if v is None else ("inf" if math.isinf(v) else f"{v:.1f}")


def to_text(t, top: int | None = None, targets=()) -> str:
    rows = t.rows if top is None else t.rows[:top]
    lines = [f"{t.model}: {len(t.rows)} quantised layers, task {t.task} ({t.metric}) on {t.images} held-out "
             f"images (measured)",
             f"INT8 (fake-quant) vs float: {t.metric_int8:.4f}; loss {t.total_loss:.4f}"]
    for k in (1, 3, 5):
        if k <= len(t.rows) and t.total_loss > 0:
            lines.append(f"  top {k} kept float alone recover {t.top_share(k):.0%} of the loss "
                         "(gains overlap: shares can exceed 100%)")
    cols = [Column("layer", 34, "<"), Column("op", 6, "<", 3), Column("float", 7), Column("gain", 7),
            Column("out-gain", 8, ">", 2), Column("SQNR dB", 7, ">", 1)]
    cols += [Column(f"+cyc {tg}", max(9, len(tg) + 5), ">", 4) for tg in targets]
    cells = []
    for r in rows:
        c = [r.name, r.op_type, f"{r.metric_float:.4f}", f"{r.gain_float:+.4f}", f"{r.gain_output:+.4f}",
             _db(r.sqnr_db)]
        for tg in targets:
            cost = r.cost(tg)
            c.append("-" if cost is None else f"{cost.extra_cycles:+d}")
        cells.append(c)
    head, dropped = table(cols, cells)
    lines += ["", *head]
    if dropped:
        lines.append(f"(columns left out to fit: {', '.join(dropped)}; use --format json)")
    lines.append("float = metric with only this layer kept float; gain = float − INT8; out-gain = with only its "
                 "output unrounded; +cyc = cycles added when the layer runs on the CPU (simulated)")
    return block(lines)
