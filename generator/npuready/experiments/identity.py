"""What "the same answers" means for two result.json documents: equal apart from the timing fields.

The timing fields are the top-level ``timing`` block: wall seconds (``total_s`` and whatever a runner
records with ``ctx.timing``) and how the run executed (``timing.execution``: inline, serial or Dask,
worker count, tasks reused from the cache). Everything else - results, provenance, spec, failed tasks -
must be byte-identical however the experiment ran.
"""
from __future__ import annotations

from typing import Any, Mapping

from npuready.atomic import dumps_json

TIMING_FIELDS = ("timing",)


def without_timing(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``doc`` without its timing fields."""
    return {key: value for key, value in doc.items() if key not in TIMING_FIELDS}


def same_answers(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """True when the two documents serialise to the same bytes once their timing fields are stripped."""
    return dumps_json(without_timing(a)) == dumps_json(without_timing(b))
