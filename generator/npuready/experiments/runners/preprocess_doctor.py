"""Experiment `preprocess-doctor`: inject each seed-004 mismatch into real photos, count what the doctor names.

For every photo and injection the doctor compares the runtime tensor with the calibration
tensor three times: given the calibration spec (``--spec``), blind, and given the spec with
+-1 LSB jitter added to the runtime tensor. Matched pairs (identical, and +-1 LSB jitter) count
false alarms. All counts are measured here.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npuready.experiments.context import RunContext


def _row(kinds: tuple[str, ...], expected: frozenset[str]) -> dict[str, Any]:
    found = set(kinds)
    return {"detected": expected <= found, "exact": found == expected, "kinds": sorted(found)}


def run(ctx: RunContext) -> dict[str, Any]:
    import PIL

    from npuready.data import photo
    from npuready.preprocess.doctor import KINDS, diagnose
    from npuready.preprocess.injection import combinations, injections, jitter, matched_specs
    from npuready.preprocess.pipeline import apply

    names = list(ctx.params.get("photos", ["astronaut", "chelsea", "coffee", "rocket", "china", "flower"]))
    small, large = (int(v) for v in ctx.params.get("letterbox_sizes", [640, 1280]))
    seed = ctx.seed("jitter", int(ctx.params.get("seed", 0)))
    ctx.tool("pillow", PIL.__version__)
    ctx.tool("numpy", np.__version__)
    images = {n: photo(n) for n in names}
    cases = injections((small, large))
    per_case: dict[str, dict[str, Any]] = {}
    rows = []
    for case in ctx.progress(cases, "injections"):
        stats = {"expected": sorted(case.expected), "why": case.why, "injected": 0, "no_op": 0,
                 "detected_with_spec": 0, "exact_with_spec": 0, "detected_blind": 0, "exact_blind": 0,
                 "detected_jitter": 0, "exact_jitter": 0}
        for name, img in images.items():
            calib, runtime = apply(case.calib, img), case.runtime(img)
            if calib.shape == runtime.shape and np.array_equal(calib, runtime):
                stats["no_op"] += 1  # the injection does not change this image's tensor
                continue
            stats["injected"] += 1
            with_spec = _row(diagnose(runtime, calib, case.calib).kinds, case.expected)
            blind = _row(diagnose(runtime, calib).kinds, case.expected)
            noisy = _row(diagnose(jitter(runtime, seed + len(rows)), calib, case.calib).kinds, case.expected)
            stats["detected_jitter"] += noisy["detected"]
            stats["exact_jitter"] += noisy["exact"]
            stats["detected_with_spec"] += with_spec["detected"]
            stats["exact_with_spec"] += with_spec["exact"]
            stats["detected_blind"] += blind["detected"]
            stats["exact_blind"] += blind["exact"]
            rows.append({"injection": case.name, "photo": name, "with_spec": with_spec["kinds"],
                         "blind": blind["kinds"], "jitter_with_spec": noisy["kinds"]})
        per_case[case.name] = stats
    combined = {}
    for case in ctx.progress(combinations((small, large)), "combinations"):
        stats = {"expected": sorted(case.expected), "why": case.why, "injected": 0, "detected_with_spec": 0,
                 "exact_with_spec": 0, "found": []}
        for name, img in images.items():
            calib, runtime = apply(case.calib, img), case.runtime(img)
            stats["injected"] += 1
            row = _row(diagnose(runtime, calib, case.calib).kinds, case.expected)
            stats["detected_with_spec"] += row["detected"]
            stats["exact_with_spec"] += row["exact"]
            stats["found"].append({"photo": name, "kinds": row["kinds"]})
        combined[case.name] = stats
    matched = {"pairs": 0, "false_alarms_with_spec": 0, "false_alarms_blind": 0, "alarms": []}
    for k, spec in enumerate(ctx.progress(matched_specs(), "matched pairs")):
        for j, (name, img) in enumerate(images.items()):
            x = apply(spec, img)
            for label, runtime in (("identical", x.copy()), ("jitter_1lsb", jitter(x, seed + 100 * k + j))):
                matched["pairs"] += 1
                for mode, d in (("with_spec", diagnose(runtime, x, spec)), ("blind", diagnose(runtime, x))):
                    if not d.matched:
                        matched[f"false_alarms_{mode}"] += 1
                        matched["alarms"].append({"spec": spec.name, "photo": name, "pair": label, "mode": mode,
                                                  "kinds": list(d.kinds)})
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
