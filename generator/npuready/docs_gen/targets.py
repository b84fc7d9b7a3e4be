"""Generate ``docs/targets.md`` from the target data files (never typed by hand).

``render_targets_md()`` is pure; ``python -m npuready.docs_gen.targets`` writes the file and
``tests/targets/test_docs.py`` fails when the committed file differs from what this produces now.
"""
from __future__ import annotations

import sys
from pathlib import Path

from npuready.targets import load_target, target_names
from npuready.targets.target import INTERPOLATIONS, NORM_OPS, Target

DOC_PATH = Path("docs") / "targets.md"


def _cell(value) -> str:
    text = str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def _fmt(value: float) -> str:
    return f"{value:g}"


def _summary_row(t: Target) -> str:
    engine = f"{t.array_rows}x{t.array_cols}" + (f"x{t.dot_width}" if t.dot_width > 1 else "") + f" {t.engine}"
    sram = f"{t.sram_kib} KiB" + (f" @ {_fmt(t.sram_gbps)} GB/s" if t.sram_gbps else "")
    return (f"| `{t.name}` | {t.kind} | {engine} | {t.cores} | {_fmt(t.clock_mhz)} | {t.macs_per_cycle} | "
            f"{t.tops:.3f} | {sram} | {_fmt(t.dram_gbps)} GB/s ({t.weight_memory} holds weights) | "
            f"{t.vector_lanes} | {'yes' if t.depthwise_engine else 'no'} |")


def _target_section(t: Target) -> list[str]:
    lines = [f"## `{t.name}` — {_cell(t.title)}", "", _cell(t.description), ""]
    if t.reference:
        lines += ["Mirrors: " + ", ".join(f"{k} = `{v}`" for k, v in sorted(t.reference.items())), ""]
    fields = [
        ("engine", t.engine), ("array rows x cols", f"{t.array_rows} x {t.array_cols}"), ("dot width", t.dot_width),
        ("cores", t.cores), ("clock", f"{_fmt(t.clock_mhz)} MHz"), ("MACs/cycle", t.macs_per_cycle),
        ("peak INT8", f"{t.tops:.3f} TOPS"), ("SRAM", f"{t.sram_kib} KiB"),
        ("SRAM bandwidth", f"{_fmt(t.sram_gbps)} GB/s" if t.sram_gbps else "not limiting"),
        ("DRAM / off-chip bandwidth", f"{_fmt(t.dram_gbps)} GB/s"), ("weights stream from", t.weight_memory),
        ("DRAM latency", f"{t.dram_latency_cycles} cycles"), ("vector lanes", t.vector_lanes),
        ("depthwise engine", "yes" if t.depthwise_engine else "no"),
        ("output stage", f"{_fmt(t.output_elems_per_cycle)} elements/cycle" if t.output_elems_per_cycle
         else "inside the array formula"),
        ("elementwise", f"{_fmt(t.elementwise_elems_per_cycle)} elements/cycle" if t.elementwise_elems_per_cycle
         else "vector lanes"),
        ("channel block", t.channel_block or "dot width"), ("part-kernel step", t.part_kernel_step or "none"),
        ("weight load floor", f"{t.weight_load_cycles} cycles"),
        ("global pooling lowered to depthwise", "yes" if t.global_pool_as_depthwise else "no"),
        ("pooling rate", f"{_fmt(t.pool_ops_per_cycle)} kernel-element ops/cycle" if t.pool_ops_per_cycle
         else "vector lanes"),
        ("host", f"{_fmt(t.host_gflops)} GFLOP/s, link {_fmt(t.host_link_gbps)} GB/s"),
    ]
    lines += ["| field | value |", "|---|---|"] + [f"| {k} | {_cell(v)} |" for k, v in fields]
    modes: dict[str, list[str]] = {}
    for op, mode in sorted(t.activations.items()):
        modes.setdefault(mode, []).append(op)
    lines += ["", "Activations: " + "; ".join(f"**{m}**: {', '.join(ops)}" for m, ops in sorted(modes.items())) + "."]
    lines += ["", "Supported ops (read by lint and the partition planner): "
              + ", ".join(f"`{o}`" for o in sorted(t.supported_ops)) + "."]
    lines += ["", "Normalisation: " + ", ".join(f"{op} **{t.norm_mode(op)}**" for op in NORM_OPS)
              + (f" (limit: normalised axis <= {t.norm_axis_max})" if t.norm_axis_max else "") + "."]
    rz = t.resize
    limits = [f"scales {'/'.join(f'{s}x' for s in rz.scales)}" if rz.scales else "",
              f"half-pixel linear only {'/'.join(f'{s}x' for s in rz.half_pixel_scales)}" if rz.half_pixel_scales
              else "",
              f"coordinate transforms {', '.join(sorted(rz.coordinate_transforms))}" if rz.coordinate_transforms
              else ""]
    lines += ["", "Resize: " + ", ".join(f"{m} **{rz.mode(m)}**" for m in INTERPOLATIONS)
              + (f" ({'; '.join(x for x in limits if x)})" if any(limits) else "") + "."]
    lines += ["", *_severity_table(t)]
    lines += ["", "Energy: " + ", ".join(f"{k} = {_fmt(v)}" for k, v in sorted(t.energy.items())) + "."]
    lines += ["", "Where each number comes from:", ""] + [f"- **{k}**: {_cell(v)}"
                                                          for k, v in sorted(t.sources.items())]
    return lines + [""]


def _severity_table(t: Target) -> list[str]:
    """What lint reports for the target-dependent rules on this target (default profile), and how it runs."""
    from npuready.lint.policy import TARGET_RULES, matrix
    from npuready.lint.registry import RULES

    lines = ["Lint severity on this target (default `target` profile; `--profile portable` makes every flagged "
             "row an ERROR; the partition planner puts a node on the NPU exactly when it runs here):", "",
             "| rule | case | severity | how |", "|---|---|---|---|"]
    for rid in TARGET_RULES:
        lines += [f"| {rid} | {_cell(case)} | {sev or 'no finding'} | {_cell(how)} |"
                  for case, sev, how in matrix(RULES[rid], t, "target")]
    return lines


def _schema_section() -> list[str]:
    """The data-file fields, from their declarations in ``npuready.targets.target`` (``knob``)."""
    from dataclasses import MISSING, fields

    from npuready.targets.target import SOURCE_GROUPS

    lines = ["## Fields of a target file", "",
             "Declared once with the `Target` dataclass (`npuready.targets.target`, `knob`): the loader's type and "
             "range checks, the `[sources]` group that must say where a number comes from, and this table are all "
             "read from that declaration. `[sources]` needs one line per group: " + ", ".join(SOURCE_GROUPS) + "."]
    sections = {"core": "Every target", "ethos-u": "Ethos-U mirror knobs (their defaults switch the mechanism off)"}
    for key, heading in sections.items():
        lines += ["", f"### {heading}", "", "| field | required | default | unit | [sources] group | meaning |",
                  "|---|---|---|---|---|---|"]
        for f in fields(Target):
            meta = f.metadata
            if meta.get("section") != key:
                continue
            required = f.default is MISSING and f.default_factory is MISSING
            default = "" if required or f.default is None else f"`{f.default!r}`" if f.default != "" else "empty"
            lines.append(f"| `{f.name}` | {'yes' if required else 'no'} | {default or '-'} | {meta['unit'] or '-'} "
                         f"| {meta['group'] or '-'} | {_cell(meta['doc'])}"
                         + ((" (> 0)" if required else " (> 0 when set)") if meta["positive"] else "") + " |")
    return lines + [""]


def render_targets_md() -> str:
    targets = [load_target(n) for n in target_names()]
    lines = [
        "# NPU targets",
        "",
        "<!-- GENERATED by npuready.docs_gen.targets (python -m npuready.docs_gen.targets). Do not edit. -->",
        "",
        "One TOML file per target under `generator/npuready/targets/data/`, validated when loaded. *virtual* "
        "targets are design assumptions, not chips; *mirror* targets copy the configuration of an external tool "
        "(Arm Vela's default Ethos-U systems, onnxruntime's NNAPI op list) so npuready can be compared with it. "
        "Every cost figure computed from these files is **simulated**. What a target declares it runs (op table, "
        "activation modes, normalisation and resize support, each with a source) decides the lint severity of "
        "R005-R007 under the default profile and where the partition planner and the cost model place each node "
        "(`npuready.targets.support`, `npuready.lint.policy`); these declarations are data about the targets, "
        "not measurements of NPU silicon.",
        "",
        "| target | kind | MAC engine | cores | clock MHz | MACs/cycle | peak TOPS | SRAM | off-chip | vector lanes "
        "| depthwise engine |",
        "|---|---|---|---:|---:|---:|---:|---|---|---:|---|",
    ]
    lines += [_summary_row(t) for t in targets] + [""]
    lines += _schema_section()
    for t in targets:
        lines += _target_section(t)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from npuready.atomic import write_text

    root = Path(argv[0]) if argv else Path.cwd()
    write_text(root / DOC_PATH, render_targets_md())
    print(f"wrote {root / DOC_PATH}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
