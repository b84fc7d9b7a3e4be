"""Experiment `preprocess-doctor`: inject each seed-004 mismatch into real photos, count what the doctor names.

For every photo and injection the doctor compares the runtime tensor with the calibration
tensor three times: given the calibration spec (``--spec``), blind, and given the spec with
+-1 LSB jitter added to the runtime tensor. Matched pairs (identical, and +-1 LSB jitter) count
false alarms. All counts are measured here.

Units of work: one injection, one combination, one matched spec (each over every photo); the merge
assembles them in declaration order.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npuready.experiments.context import RunContext
from npuready.experiments.task import Task


def _row(kinds: tuple[str, ...], expected: frozenset[str]) -> dict[str, Any]:
    found = set(kinds)
    return {"detected": expected <= found, "exact": found == expected, "kinds": sorted(found)}


def _setup(ctx: RunContext) -> tuple[dict[str, Any], tuple[int, int], int]:
    """The photos (name -> image), letterbox sizes and jitter seed every task starts from."""
    import PIL

    from npuready.data import photo

    names = list(ctx.params.get("photos", PHOTOS))
    small, large = (int(v) for v in ctx.params.get("letterbox_sizes", [640, 1280]))
    seed = ctx.seed("jitter", int(ctx.params.get("seed", 0)))
    ctx.tool("pillow", PIL.__version__)
    ctx.tool("numpy", np.__version__)
    return {n: photo(n) for n in names}, (small, large), seed


PHOTOS = ["astronaut", "chelsea", "coffee", "rocket", "china", "flower"]


def tasks(ctx: RunContext) -> list[Task]:
    """One task per injection, per combination and per matched spec (their counts only depend on the
    letterbox sizes, not on the photos)."""
    from npuready.preprocess.injection import combinations, injections, matched_specs

    sizes = tuple(int(v) for v in ctx.params.get("letterbox_sizes", [640, 1280]))
    return ([Task(f"injection:{case.name}", {"part": "injection", "index": i}) for i, case in enumerate(injections(sizes))]
            + [Task(f"combination:{case.name}", {"part": "combination", "index": i})
               for i, case in enumerate(combinations(sizes))]
            + [Task(f"matched:{k}:{spec.name}", {"part": "matched", "index": k}) for k, spec in enumerate(matched_specs())])


def run_task(ctx: RunContext, args: dict[str, Any]) -> dict[str, Any]:
    images, sizes, seed = _setup(ctx)
    return {"injection": _injection, "combination": _combination, "matched": _matched}[args["part"]](
        images, sizes, seed, int(args["index"]))


def _injection(images: dict[str, Any], sizes: tuple[int, int], seed: int, index: int) -> dict[str, Any]:
    """One injection over every photo. The jitter seed counts the injected pairs of the injections before
    this one (seed + running row number), so it is the same whichever worker runs which injection."""
    from npuready.preprocess.doctor import diagnose
    from npuready.preprocess.injection import injections, jitter
    from npuready.preprocess.pipeline import apply

    cases = injections(sizes)
    offset = sum(_injected(case, images) for case in cases[:index])
    case = cases[index]
    stats = {"expected": sorted(case.expected), "why": case.why, "injected": 0, "no_op": 0,
             "detected_with_spec": 0, "exact_with_spec": 0, "detected_blind": 0, "exact_blind": 0,
             "detected_jitter": 0, "exact_jitter": 0}
    rows = []
    for name, img in images.items():
        calib, runtime = apply(case.calib, img), case.runtime(img)
        if calib.shape == runtime.shape and np.array_equal(calib, runtime):
            stats["no_op"] += 1  # the injection does not change this image's tensor
            continue
        stats["injected"] += 1
        with_spec = _row(diagnose(runtime, calib, case.calib).kinds, case.expected)
        blind = _row(diagnose(runtime, calib).kinds, case.expected)
        noisy = _row(diagnose(jitter(runtime, seed + offset + len(rows)), calib, case.calib).kinds, case.expected)
        stats["detected_jitter"] += noisy["detected"]
        stats["exact_jitter"] += noisy["exact"]
        stats["detected_with_spec"] += with_spec["detected"]
        stats["exact_with_spec"] += with_spec["exact"]
        stats["detected_blind"] += blind["detected"]
        stats["exact_blind"] += blind["exact"]
        rows.append({"injection": case.name, "photo": name, "with_spec": with_spec["kinds"],
                     "blind": blind["kinds"], "jitter_with_spec": noisy["kinds"]})
    return {"case": case.name, "stats": stats, "rows": rows}


def _injected(case, images: dict[str, Any]) -> int:
    """How many photos the injection changes (rendering only, no diagnosis)."""
    from npuready.preprocess.pipeline import apply

    count = 0
    for img in images.values():
        calib, runtime = apply(case.calib, img), case.runtime(img)
        count += not (calib.shape == runtime.shape and np.array_equal(calib, runtime))
    return count


def _combination(images: dict[str, Any], sizes: tuple[int, int], seed: int, index: int) -> dict[str, Any]:
    from npuready.preprocess.doctor import diagnose
    from npuready.preprocess.injection import combinations
    from npuready.preprocess.pipeline import apply

    case = combinations(sizes)[index]
    stats = {"expected": sorted(case.expected), "why": case.why, "injected": 0, "detected_with_spec": 0,
             "exact_with_spec": 0, "found": []}
    for name, img in images.items():
        calib, runtime = apply(case.calib, img), case.runtime(img)
        stats["injected"] += 1
        row = _row(diagnose(runtime, calib, case.calib).kinds, case.expected)
        stats["detected_with_spec"] += row["detected"]
        stats["exact_with_spec"] += row["exact"]
        stats["found"].append({"photo": name, "kinds": row["kinds"]})
    return {"case": case.name, "stats": stats}


def _matched(images: dict[str, Any], sizes: tuple[int, int], seed: int, k: int) -> dict[str, Any]:
    from npuready.preprocess.doctor import diagnose
    from npuready.preprocess.injection import jitter, matched_specs
    from npuready.preprocess.pipeline import apply

    spec = matched_specs()[k]
    matched = {"pairs": 0, "false_alarms_with_spec": 0, "false_alarms_blind": 0, "alarms": []}
    for j, (name, img) in enumerate(images.items()):
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

    names = list(ctx.params.get("photos", PHOTOS))
    small, large = (int(v) for v in ctx.params.get("letterbox_sizes", [640, 1280]))
    per_case = {o["case"]: o["stats"] for key, o in outputs.items() if key.startswith("injection:")}
    rows = [r for key, o in outputs.items() if key.startswith("injection:") for r in o["rows"]]
    combined = {o["case"]: o["stats"] for key, o in outputs.items() if key.startswith("combination:")}
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
