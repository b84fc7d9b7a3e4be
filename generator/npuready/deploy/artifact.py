"""The device artifact of a deployment: the INT8 TFLite a runtime loads, checked before it is registered.

After the parity gate passes, the QDQ model is lowered to INT8 TFLite with its own scales and run on LiteRT's
reference kernels beside the integer engine on (up to ``CHECK_INPUTS`` of) the held-out inputs. When every int8
tensor is identical, the .tflite joins the registry entry (role ``int8``); when the lowering has no TFLite
form for an op, or a tensor differs, the stage records why and the entry keeps the integer engine's build
only — it never registers a file whose numerics were not checked. ``npuready export`` writes the same
file (plus Vela and vendor builds) into a folder of its own.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from npuready.errors import InputError

CHECK_INPUTS = 20


def check_tflite(qdq, intgraph, x: np.ndarray, name: str) -> tuple[bytes | None, dict[str, Any], str]:
    """(the .tflite bytes or None, evidence, one-line summary)."""
    from npuready.tflite.export import export_int8_from_qdq
    from npuready.verify.litert_oracle import compare_with_litert

    try:
        tflite = export_int8_from_qdq(qdq)
    except InputError as exc:
        return None, {"evidence": "analysis", "written": False, "reason": str(exc)}, f"no INT8 TFLite: {exc}"
    images = x[:CHECK_INPUTS]
    rep = compare_with_litert(qdq, images, intgraph, optimized=False, model_name=name)
    first = rep.first_mismatch()
    ev = {"evidence": "measured", "reference": "LiteRT BUILTIN_REF (reference kernels)", "inputs": int(len(images)),
          "tensors_compared": rep.tensors_compared, "tensors_mismatched": rep.tensors_mismatched,
          "first_mismatch": first, "written": first is None, "bytes": len(tflite)}
    if first is not None:
        return None, ev, (f"INT8 TFLite not registered: tensor {first['tensor']} ({first['kind']}) differs from the "
                          f"integer engine on {first['images']} of {len(images)} inputs")
    return tflite, ev, (f"INT8 TFLite ({len(tflite):,} bytes): {rep.tensors_compared} tensors identical to LiteRT's "
                        f"reference kernels on {len(images)} inputs")
