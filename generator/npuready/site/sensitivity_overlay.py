"""Which model pages carry a sensitivity overlay: a model report whose ONNX file (its SHA-256) is a model of the
``mixed-precision`` result gets that model's section — its sensitivity table and the layers ``--keep-float auto``
kept — embedded beside the report, for the graph view's "sensitivity" colouring (``assets/sensitivity.js``).
The section is an excerpt of the stored result at its own pointers, so every number still opens that record."""
from __future__ import annotations

from typing import Any, Mapping

from npuready.site import pointer
from npuready.site.modelindex import excerpt
from npuready.site.source import Experiment

SOURCE = "mixed-precision"


def overlay_for(report: Experiment, experiments: Mapping[str, Experiment]) -> tuple[str, str, dict[str, Any]] | None:
    """(experiment id, pointer of the model's section, the excerpt to embed), or None."""
    model = report.results.get("model")
    sha = model.get("sha256") if isinstance(model, Mapping) else None
    src = experiments.get(SOURCE)
    if not sha or src is None:
        return None
    for name, sec in sorted(src.results.items()):
        if isinstance(sec, Mapping) and sec.get("model_sha256") == sha and isinstance(sec.get("sensitivity"), Mapping):
            path = pointer.join("/results", name)
            return SOURCE, path, excerpt(src.doc, [f"{path}/sensitivity", f"{path}/keep_float", f"{path}/model"],
                                         f"the model page carries the sensitivity table of this model; "
                                         f"experiments/{SOURCE}/result.json is the whole record")
    return None
