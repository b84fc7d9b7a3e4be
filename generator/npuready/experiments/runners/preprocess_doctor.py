"""Experiment `preprocess-doctor`: inject each seed-004 mismatch into real photos, count what the doctor names.

For every photo and injection the doctor compares the runtime tensor with the calibration
tensor three times: given the calibration spec (``--spec``), blind, and given the spec with
+-1 LSB jitter added to the runtime tensor. Matched pairs (identical, and +-1 LSB jitter) count
false alarms. All counts are measured here.

Units of work: one photo of one injection, combination or matched spec; the merge assembles them in
declaration order.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npuready.experiments.context import RunContext
from npuready.experiments.task import Task


def _row(kinds: tuple[str, ...], expected: frozenset[str]) -> dict[str, Any]:
    found = set(kinds)
    return {"detected": expected <= found, "exact": found == expected, "kinds": sorted(found)}




PHOTOS = ["astronaut", "chelsea", "coffee", "rocket", "china", "flower"]


def _changes(case, img) -> bool:
    """Whether the injection changes this photo's tensor (rendering only, no diagnosis)."""
    from npuready.preprocess.pipeline import apply

    calib, runtime = apply(case.calib, img), case.runtime(img)
    return not (calib.shape == runtime.shape and np.array_equal(calib, runtime))


def tasks(ctx: RunContext) -> list[Task]:
    """One task per photo of each injection, combination and matched spec. An injection's jitter seed is
    the running number of injected pairs before it (in injection, then photo order); it is found here by
    rendering only, so every task knows its own seed whichever worker runs it."""
    from npuready.data import photo
    from npuready.preprocess.injection import combinations, injections, matched_specs

    sizes = tuple(int(v) for v in ctx.params.get("letterbox_sizes", [640, 1280]))
    names = list(ctx.params.get("photos", PHOTOS))
    images = {n: photo(n) for n in names}
    out, row = [], 0
    for i, case in enumerate(injections(sizes)):
        for j, name in enumerate(names):
            changed = _changes(case, images[name])
            out.append(Task(f"injection:{case.name}:{name}", {"part": "injection", "index": i, "photo": j,
                                                              "row": row, "changed": changed}))
            row += changed
    out += [Task(f"combination:{case.name}:{name}", {"part": "combination", "index": i, "photo": j})
            for i, case in enumerate(combinations(sizes)) for j, name in enumerate(names)]
    out += [Task(f"matched:{k}:{spec.name}:{name}", {"part": "matched", "index": k, "photo": j})
            for k, spec in enumerate(matched_specs()) for j, name in enumerate(names)]
    return out


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    import PIL

    from npuready.data import photo

    name = list(ctx.params.get("photos", PHOTOS))[int(args["photo"])]
    sizes = tuple(int(v) for v in ctx.params.get("letterbox_sizes", [640, 1280]))
    seed = ctx.seed("jitter", int(ctx.params.get("seed", 0)))
    ctx.tool("pillow", PIL.__version__)
    ctx.tool("numpy", np.__version__)
    part = {"injection": _injection, "combination": _combination, "matched": _matched}[args["part"]]
    return part(name, photo(name), sizes, seed, args)


def _injection(name: str, img, sizes: tuple[int, int], seed: int, args: dict[str, Any]) -> dict[str, Any]:
    from npuready.preprocess.doctor import diagnose
    from npuready.preprocess.injection import injections, jitter
    from npuready.preprocess.pipeline import apply

    case = injections(sizes)[int(args["index"])]
    if not args["changed"]:
        return {"case": case.name, "no_op": 1}  # the injection does not change this image's tensor
    calib, runtime = apply(case.calib, img), case.runtime(img)
    with_spec = _row(diagnose(runtime, calib, case.calib).kinds, case.expected)
    blind = _row(diagnose(runtime, calib).kinds, case.expected)
    noisy = _row(diagnose(jitter(runtime, seed + int(args["row"])), calib, case.calib).kinds, case.expected)
    return {"case": case.name, "no_op": 0, "with_spec": with_spec, "blind": blind, "jitter": noisy,
            "row": {"injection": case.name, "photo": name, "with_spec": with_spec["kinds"],
                    "blind": blind["kinds"], "jitter_with_spec": noisy["kinds"]}}


def _combination(name: str, img, sizes: tuple[int, int], seed: int, args: dict[str, Any]) -> dict[str, Any]:
    from npuready.preprocess.doctor import diagnose
    from npuready.preprocess.injection import combinations
    from npuready.preprocess.pipeline import apply

    case = combinations(sizes)[int(args["index"])]
    calib, runtime = apply(case.calib, img), case.runtime(img)
    return {"case": case.name, "photo": name, **_row(diagnose(runtime, calib, case.calib).kinds, case.expected)}


def _matched(name: str, img, sizes: tuple[int, int], seed: int, args: dict[str, Any]) -> dict[str, Any]:
    from npuready.preprocess.doctor import diagnose
    from npuready.preprocess.injection import jitter, matched_specs
    from npuready.preprocess.pipeline import apply

    k, j = int(args["index"]), int(args["photo"])
    spec = matched_specs()[k]
    matched = {"pairs": 0, "false_alarms_with_spec": 0, "false_alarms_blind": 0, "alarms": []}
    x = apply(spec, img)
    for label, runtime in (("identical", x.copy()), ("jitter_1lsb", jitter(x, seed + 100 * k + j))):
        matched["pairs"] += 1
        for mode, d in (("with_spec", diagnose(runtime, x, spec)), ("blind", diagnose(runtime, x))):
            if not d.matched:
                matched[f"false_alarms_{mode}"] += 1
                matched["alarms"].append({"spec": spec.name, "photo": name, "pair": label, "mode": mode,
                                          "kinds": list(d.kinds)})
    return matched


def merge(ctx: RunContext, outputs: dict[str, Any]) -> dict[str, Any]:
    from npuready.preprocess.doctor import KINDS
    from npuready.preprocess.injection import combinations, injections

    names = list(ctx.params.get("photos", PHOTOS))
    small, large = (int(v) for v in ctx.params.get("letterbox_sizes", [640, 1280]))
    per_case: dict[str, dict[str, Any]] = {}
    for case in injections((small, large)):
        per_case[case.name] = {"expected": sorted(case.expected), "why": case.why, "injected": 0, "no_op": 0,
                               "detected_with_spec": 0, "exact_with_spec": 0, "detected_blind": 0,
                               "exact_blind": 0, "detected_jitter": 0, "exact_jitter": 0}
    rows = []
    for key, o in outputs.items():
        if not key.startswith("injection:"):
            continue
        stats = per_case[o["case"]]
        stats["no_op"] += o["no_op"]
        if o["no_op"]:
            continue
        stats["injected"] += 1
        for mode in ("with_spec", "blind", "jitter"):
            stats[f"detected_{mode}"] += o[mode]["detected"]
            stats[f"exact_{mode}"] += o[mode]["exact"]
        rows.append(o["row"])
    combined: dict[str, dict[str, Any]] = {}
    for case in combinations((small, large)):
        combined[case.name] = {"expected": sorted(case.expected), "why": case.why, "injected": 0,
                               "detected_with_spec": 0, "exact_with_spec": 0, "found": []}
    for key, o in outputs.items():
        if key.startswith("combination:"):
            stats = combined[o["case"]]
            stats["injected"] += 1
            stats["detected_with_spec"] += o["detected"]
            stats["exact_with_spec"] += o["exact"]
            stats["found"].append({"photo": o["photo"], "kinds": o["kinds"]})
    matched = {"pairs": 0, "false_alarms_with_spec": 0, "false_alarms_blind": 0, "alarms": []}
    for key, o in outputs.items():
        if key.startswith("matched:"):
            for field in ("pairs", "false_alarms_with_spec", "false_alarms_blind", "alarms"):
                matched[field] += o[field]
    total = {key: sum(s[key] for s in per_case.values())
             for key in ("injected", "no_op", "detected_with_spec", "exact_with_spec", "detected_blind", "exact_blind",
                         "detected_jitter", "exact_jitter")}
    return {
        "setup": {"evidence": "measured", "photos": names, "kinds": dict(KINDS),
                  "letterbox_sizes": [small, large],
                  "method": "each injection renders the photo through pipeline.apply with the calibration spec and "
                            "with a runtime spec differing in one way; detected = every expected kind named, "
                            "exact = nothing else named; jitter = runtime tensor plus +-1 LSB noise, with spec"},
        "injections": {"evidence": "measured", "per_injection": per_case, "total": total},
        "combined": {"evidence": "measured", "per_combination": combined,
                     "total": {key: sum(s[key] for s in combined.values())
                               for key in ("injected", "detected_with_spec", "exact_with_spec")}},
        "matched_pairs": {"evidence": "measured", **matched},
        "details": {"evidence": "measured", "rows": rows},
    }
