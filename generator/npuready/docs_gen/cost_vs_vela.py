"""Generate ``docs/cost-vs-vela.md`` from ``experiments/cost-vs-vela/result.json`` (never typed by hand).

Every number on the page is read from the experiment JSON; the prose only names mechanisms.
``python -m npuready.docs_gen.cost_vs_vela`` writes the file; ``tests/cost/test_cost_vs_vela_md.py`` fails when stale.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from npuready.cost.vela import CATEGORIES
from npuready.docs_gen.cost_vs_vela_mechanisms import mechanism_lines, open_lines
from npuready.docs_gen.experiments import md_text
from npuready.paths import repo_root
from npuready.targets import load_target

DOC_PATH = Path("docs") / "cost-vs-vela.md"
RESULT_PATH = Path("experiments") / "cost-vs-vela" / "result.json"


def _r(value: Any) -> str:
    return "—" if value is None else f"{value:.3f}×"


def _pooling_rows(models: list[dict]) -> list[str]:
    rows = []
    for m in models:
        for layer in m["layers"]:
            if layer["category"] != "pooling" or not layer.get("ofm_elems"):
                continue
            ref_per = layer["reference_cycles"] / layer["ofm_elems"]
            ours_per = layer["ours_cycles"] / layer["ofm_elems"]
            rows.append(f"| {m['model']} | {m['target']} | {layer['tensor']} | {' + '.join(layer['vela_ops'])} | "
                        f"{layer['ofm_elems']} | {ours_per:.3f} | {ref_per:.3f} | {_r(layer['ratio'])} | "
                        f"{', '.join(layer['ours_bound']) or '—'} |")
    return rows


LOWERED = ("Softmax", "BatchMatMul", "Mean")  # Vela operators the mirrors' lowering reproduces (Mean: LayerNorm)


def _lowered_rows(models: list[dict]) -> list[str]:
    """Per model and target: the transformer ops Vela lowers, ours vs Vela summed over their layers."""
    out = ["", "## Transformer ops: Vela's lowering", "",
           "Vela has no native Ethos-U kernel for int8 Softmax, activation-by-activation BatchMatMul or "
           "LayerNorm: it lowers each into a chain of elementwise, pooling, depthwise and lookup-table "
           "operations, each a pass of its own with its own memory round trip. The mirrors (`lowering = "
           "\"vela\"` in their target files; no other target) cost the same chains with their ordinary "
           "per-op formulas, no constant fitted to these rows (`npuready/cost/lowering.py` names the Vela "
           "source of each sequence): Softmax as Vela's integer softmax — a max and a sum over each row, "
           "exp by lookup table, a Newton-Raphson reciprocal on the row sums and the full-size rescaling "
           "passes; LayerNorm as two means (each a depthwise conv with its weight-load floor), centring, "
           "square, a reciprocal square root by lookup table, normalise, scale and shift; an activation-by-"
           "activation MatMul as an elementwise Mul over every product plus a ReduceSum, as Vela's C++ core "
           "runs it per output column (regor `InsertMatMulCommand`; the Mul writes an int32 scratch at regor's "
           "int32 output rate; the transpose of the second operand and the per-column command overhead are not "
           "modelled). Elementwise Mul runs at its own rate from Vela's architecture tables "
           "(`mul_elems_per_cycle`, see docs/targets.md); the Softmax steps after the exp run on int32 tensors. "
           "The Mean rows include the model's final token mean as well as the LayerNorm chains.", "",
           "| model | target | Vela operator | layers | Vela ops (longest layer) | ours cycles | Vela cycles | ratio |",
           "|---|---|---|---:|---:|---:|---:|---:|"]
    for m in models:
        for op in LOWERED:
            sel = [l for l in m["layers"] if l.get("vela_operator") == op]
            if not sel or not any(l.get("vela_operator") in LOWERED[:2] for l in m["layers"]):
                continue
            ours, ref = sum(l["ours_cycles"] for l in sel), sum(l["reference_cycles"] for l in sel)
            per = max(len(l["vela_ops"]) for l in sel)
            out.append(f"| {m['model']} | {m['target']} | {op} | {len(sel)} | {per} | {ours} | {ref} | "
                       f"{_r(ours / ref if ref else None)} |")
    return out


def _unrolled_conv_rows(models: list[dict]) -> list[str]:
    """Conv layers Vela split into several Conv2D ops (a stride the hardware does not take)."""
    sel = [(m, l) for m in models for l in m["layers"]
           if l.get("vela_operator") == "Conv2D" and l["vela_ops"].count("Conv2D") > 1]
    if not sel:
        return []
    out = ["", "## Convs with a stride above 3: Vela's unrolling", "",
           "Ethos-U55/U65 kernels take strides up to 3. Vela 5.2.0's C++ core (regor, "
           "`GraphIrOptimiser::UnrollKernelStrides` in the ethos-u-vela source distribution) replaces a conv "
           "with a larger stride — here the ViT's patch embedding, whose stride equals its kernel — by one "
           "stride-1 conv per output pixel, each reading one kernel window of the input and all of the "
           "weights, when the conv has no padding, no dilation and constant weights. The mirrors do the same "
           "(`npuready/cost/lowering.py`): one ordinary conv per output pixel, each with its own weight-load "
           "floor, weight stream and DRAM latency, no constant fitted to these rows.", "",
           "| model | target | tensor | Vela Conv2D ops | ours cycles | Vela cycles | ratio | our bound |",
           "|---|---|---|---:|---:|---:|---:|---|"]
    for m, l in sel:
        out.append(f"| {m['model']} | {m['target']} | {l['tensor']} | {l['vela_ops'].count('Conv2D')} | "
                   f"{l['ours_cycles']} | {l['reference_cycles']} | {_r(l['ratio'])} | "
                   f"{'/'.join(l.get('ours_bound') or []) or '—'} |")
    return out


def _largest_gaps(models: list[dict], count: int = 12) -> list[str]:
    """The per-layer pairs furthest below Vela, and why they stay there."""
    rows = [(l["ratio"], m["model"], m["target"], l) for m in models for l in m.get("layers", [])
            if isinstance(l.get("ratio"), (int, float)) and l.get("reference_cycles")]
    rows.sort(key=lambda r: -abs(r[3]["reference_cycles"] - (r[3].get("ours_cycles") or 0)))
    out = ["", "## Largest per-layer gaps in cycles", "",
           "The layers furthest from Vela in cycles, whichever side is larger; the open gaps above name the "
           "mechanism behind each kind (weight compression on the Ethos-U55's weight-bound convs, the export's "
           "layout transposes, per-op fixed costs of small layers).", "",
           "| model | target | Vela operator | our nodes | ours cycles | Vela cycles | ratio | our bound |",
           "|---|---|---|---|---:|---:|---:|---|"]
    for ratio, model, target, l in rows[:count]:
        nodes = ", ".join(n for n in l.get("nodes", [])[:2])
        out.append(f"| {model} | {target} | {l.get('vela_operator', '')} | {nodes} | {l.get('ours_cycles')} | "
                   f"{l.get('reference_cycles')} | {_r(ratio)} | {'/'.join(l.get('ours_bound') or [])} |")
    return out


def _open_gaps(gaps: dict[str, Any] | None) -> list[str]:
    """The goal's verdicts and every row outside it (results.open_gaps, npuready.cost.vela_gaps)."""
    if not gaps:
        return []
    medians = ", ".join(f"{t} {_r(r)}" for t, r in gaps["median_ratio"].items())
    out = ["", "## Open gaps", "",
           f"Goal: {gaps['goal']}. Median total ratio: {medians}; all pairs {_r(gaps['median_ratio_all'])} "
           f"(met: **{gaps['median_goal_met']}**). Totals met: **{gaps['totals_goal_met']}**; op types met: "
           f"**{gaps['op_types_goal_met']}**; no layer at zero: **{gaps['zero_cost_goal_met']}**. "
           "Every row outside the goal is listed here; none is left out.", "",
           "Totals outside ±20%:", "", "| model | target | ratio |", "|---|---|---:|"]
    out += [f"| {g['model']} | {g['target']} | {_r(g['ratio'])} |" for g in gaps["totals_outside"]]
    out += ["", "Per Vela operator (\"Original Operator\" of its per-layer report), summed over every model:", "",
            "| target | Vela operator | layers | ours cycles | Vela cycles | ratio | within 1.5× |",
            "|---|---|---:|---:|---:|---:|---|"]
    outside = {(o["target"], o["vela_operator"]) for o in gaps["op_types_outside"]}
    out += [f"| {o['target']} | {o['vela_operator']} | {o['layers']} | {o['ours_cycles']} | {o['reference_cycles']} | "
            f"{_r(o['ratio'])} | {'no' if (o['target'], o['vela_operator']) in outside else 'yes'} |"
            for o in gaps["op_types"]]
    out += ["", "Per model and Vela operator outside ±20%:", "",
            "| model | target | Vela operator | layers | ours cycles | Vela cycles | ratio |",
            "|---|---|---|---:|---:|---:|---:|"]
    out += [f"| {o['model']} | {o['target']} | {o['vela_operator']} | {o['layers']} | {o['ours_cycles']} | "
            f"{o['reference_cycles']} | {_r(o['ratio'])} |" for o in gaps["model_op_types_outside"]]
    out += ["", f"Vela layers the mirror costs at zero cycles: {len(gaps['zero_cost_layers'])}."]
    out += open_lines()
    if gaps["zero_cost_layers"]:
        out += ["", "| model | target | tensor | Vela operator | Vela cycles |", "|---|---|---|---|---:|"]
        out += [f"| {z['model']} | {z['target']} | {z['tensor']} | {z['vela_operator']} | {z['reference_cycles']} |"
                for z in gaps["zero_cost_layers"]]
    return out


def _escaped(value: Any) -> Any:
    """Every string from the result as literal Markdown text (no links, images, HTML or code spans)."""
    if isinstance(value, str):
        return md_text(value)
    if isinstance(value, dict):
        return {k: _escaped(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_escaped(v) for v in value]
    return value


def render_markdown(result: dict[str, Any]) -> str:
    result = _escaped(result)
    tools = result["provenance"]["tools"]
    comp, summ = result["results"]["comparison"], result["results"]["summary"]
    models = comp["models"]
    lines = [
        "# Cost model vs Arm Vela",
        "",
        "<!-- GENERATED by npuready.docs_gen.cost_vs_vela from experiments/cost-vs-vela/result.json "
        "(python -m npuready.docs_gen.cost_vs_vela). Do not edit. -->",
        "",
        f"Arm Vela {tools.get('ethos-u-vela', '?')} compiles each model's INT8 TFLite (exported by `npuready.tflite` "
        f"with LiteRT {tools.get('ai-edge-litert', '?')}'s calibrator) with `--verbose-performance` for its default "
        "Ethos-U55-128 and Ethos-U65-256 systems; npuready's `ethos-u55-128` / `ethos-u65-256` mirror targets "
        "cost the same ONNX model. Ratio = ours / Vela. **Both sides are estimates (simulated); neither is "
        "silicon.** Vela 5.2.0 estimates with its C++ core (regor); the mirror's structure follows the legacy "
        "Python core's published performance code, `vela.ini` and, for the mechanisms listed below, regor's "
        "own source and tables (see docs/targets.md).",
        "",
        "Models named `library:NAME` are architectures built by timm/torchvision from code with **random "
        "weights** (torch seed 0) at a small input (`params.library_image_size` in the spec); like every model "
        "here they are calibrated on seeded random normal inputs, since Vela's estimate depends on shapes, "
        "not values.",
        "",
        f"Goal: {summ['goal']}. Totals met: **{summ['totals_goal_met']}** "
        f"(range {_r(summ['total_ratio_min'])} – {_r(summ['total_ratio_max'])}); "
        f"categories met: **{summ['categories_goal_met']}**.",
        "",
        "## Totals",
        "",
        "| model | target | ours cycles | Vela cycles | ratio | " + " | ".join(CATEGORIES[:-1]) + " |",
        "|---|---|---:|---:|---:|" + "---:|" * (len(CATEGORIES) - 1),
    ]
    for m in models:
        cats = [_r(m["per_category"].get(c, {}).get("ratio")) for c in CATEGORIES[:-1]]
        lines.append(f"| {m['model']} | {m['target']} | {m['ours_cycles']} | {m['reference_cycles']} | "
                     f"{_r(m['ratio'])} | " + " | ".join(cats) + " |")
    for item in comp.get("skipped", []):
        lines.append(f"\nSkipped {item['model']}: {item['reason']}")
    lines += ["", "Per op category over all pairs (min – max ratio):", ""]
    lines += [f"- **{c}**: {_r(lo)} – {_r(hi)}" for c, (lo, hi) in summ["category_ratio_range"].items()]
    lines += [
        "",
        "## What each mirror feature contributes",
        "",
        "Total ratio with one feature of the mirror switched off (``plain`` = all of them off: a bare "
        "MACs/cycle + bandwidth model). Each feature is a mechanism of the Ethos-U/Vela cost structure, taken "
        "from Vela's code and configuration, not a fitted constant; but they were chosen while looking at these "
        "same models, so this agreement is a consistency check, not an independent validation. The lowering "
        "of transformer ops (next section) stays on in every column, ``plain`` included.",
        "",
    ]
    names = list(models[0]["ablations"]) if models else []
    mirrors = [load_target(t) for t in sorted({m["target"] for m in models})]
    latencies = ", ".join(f"{t.dram_latency_cycles} cycles on {t.name}" for t in mirrors)
    floors = ", ".join(f"{t.weight_load_cycles} cycles on {t.name}" for t in mirrors)
    lines += ["| model | target | full | " + " | ".join(names) + " |", "|---|---|---:|" + "---:|" * len(names)]
    for m in models:
        lines.append(f"| {m['model']} | {m['target']} | {_r(m['ratio'])} | "
                     + " | ".join(_r(m["ablations"][n]["ratio"]) for n in names) + " |")
    lines += [
        "",
        "- **channel block**: Vela's IFM block holds 32 int8 channels and a kernel step takes 4 cycles per "
        "micro-block even when the block is partly empty, so shallow layers (16 channels) cost more than MACs/128.",
        "- **part-kernel**: for very shallow inputs (the RGB first layer) the engine packs 4 kernel elements per step "
        "instead.",
        "- **weight-load floor**: each (kernel step, channel block) loads weights in at least " + floors + ", which "
        "bounds layers with few output pixels — Vela lowers MEAN (our GlobalAveragePool) to a DepthwiseConv2D "
        "plus a Mul (see the `vela_ops` of those rows in result.json), so global pooling is weight-load bound, "
        "not a cheap reduction.",
        "- **DRAM latency**: the first DRAM read of a layer (" + latencies + ") "
        "does not overlap compute; it dominates small fully connected layers.",
        "- **probe pooling rate**: pooling at one kernel element per 4-cycle step per micro-block, measured on "
        "Vela with the probes below (not on the example models) and the same figure regor's "
        "`EstimateMacCyclesPerBlock` gives.",
        "- **constant reads, pool floor, input in DRAM, int32 rates**: the mechanisms of the next section, each "
        "switched off alone.",
        "",
        "## Pooling",
        "",
        "Probes: one MaxPool/AveragePool between two 1x1 convs (so it reads and writes intermediate tensors), "
        "compiled by Vela; only the pooling row is compared. They set the mirrors' `pool_ops_per_cycle`.",
        "",
        "| op | channels | input | kernel | stride | target | output elements | ours | Vela | Vela cycles/output "
        "| ratio |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    for p in result["results"].get("pool_probes", {}).get("rows", []):
        lines.append(f"| {p['op']} | {p['channels']} | {p['size']} | {p['kernel']} | {p['stride']} | {p['target']} | "
                     f"{p['output_elems']} | {p['ours_cycles']} | {p['reference_cycles']} | "
                     f"{p['reference_cycles_per_output']:.3f} | {_r(p['ratio'])} |")
    lines += [
        "",
        "The residual on small probes (few output elements) is a per-layer overhead in Vela's estimate that the "
        "mirror does not model. Pooling rows of the example models (global average pooling is lowered by Vela "
        "to DepthwiseConv2D + Mul and costed by the weight-load floor):",
        "",
        "| model | target | tensor | Vela ops | output elements | ours cycles/elem | Vela cycles/elem | ratio "
        "| our bound |",
        "|---|---|---|---|---:|---:|---:|---:|---|",
    ]
    lines += _pooling_rows(models)
    lines += mechanism_lines()
    lines += _lowered_rows(models)
    lines += _unrolled_conv_rows(models)
    lines += _open_gaps(result["results"].get("open_gaps"))
    lines += _largest_gaps(models)
    lines += ["", "Per-layer pairs for every model are in `experiments/cost-vs-vela/result.json` "
                  "(`results.comparison.models[].layers[]`).", ""]
    return "\n".join(lines)


def build(root: Path | None = None) -> str:
    base = root or repo_root()
    return render_markdown(json.loads((base / RESULT_PATH).read_text(encoding="utf-8")))


def main(argv: list[str] | None = None) -> int:
    from npuready.atomic import write_text

    root = Path(argv[0]) if argv else repo_root()
    write_text(root / DOC_PATH, build(root))
    print(f"wrote {root / DOC_PATH}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
