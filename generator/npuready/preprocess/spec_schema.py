"""JSON Schema of a preprocessing spec file (``--preset FILE.json``; older spelling ``--spec``).

Types, enumerations and ranges are checked here, before a ``PreprocessSpec`` is built; the dataclass
then checks the relations between fields (mean and std together, letterbox without resize, …).
"""
from __future__ import annotations

from typing import Any

from npuready.inputs.budget import MAX_IMAGE_SIDE
from npuready.preprocess.spec import (COLORS, DTYPES, INTERPOLATIONS, LAYOUTS, LETTERBOX_STYLES, LIMIT_TYPES,
                                      RESIZERS, SIZE_ROUNDINGS)

_SIDE = {"type": "integer", "minimum": 1, "maximum": MAX_IMAGE_SIDE}
_SIZE = {"oneOf": [_SIDE, {"type": "array", "items": _SIDE, "minItems": 2, "maxItems": 2}],
         "description": f"one integer or [height, width], each 1..{MAX_IMAGE_SIDE}"}
_CHANNELS = {"type": "array", "items": {"type": "number"}, "minItems": 1, "maxItems": 3}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "preprocessing spec",
    "description": "How images become model inputs; calibration and inference read the same spec.",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "maxLength": 200, "description": "a label for reports"},
        "color": {"enum": list(COLORS), "description": "channel order at the model input"},
        "dtype": {"enum": list(DTYPES), "description": "element type at the compiled model's input"},
        "layout": {"enum": list(LAYOUTS), "description": "tensor layout at the model input"},
        "resize": {"oneOf": [{"type": "null"}, _SIZE],
                   "description": "an integer resizes the shorter side; [height, width] resizes exactly"},
        "interpolation": {"enum": list(INTERPOLATIONS)},
        "center_crop": {"oneOf": [{"type": "null"}, _SIZE]},
        "letterbox": {"oneOf": [{"type": "null"}, _SIZE]},
        "pad_value": {"type": "integer", "minimum": 0, "maximum": 255, "description": "letterbox padding"},
        "scale": {"oneOf": [{"type": "null"}, {"type": "number", "exclusiveMinimum": 0, "maximum": 1e6}],
                  "description": "multiplier applied to 0..255 pixels (e.g. 1/255)"},
        "mean": {"oneOf": [{"type": "null"}, _CHANNELS], "description": "per-channel mean, in output channel order"},
        "std": {"oneOf": [{"type": "null"}, {**_CHANNELS, "items": {"type": "number", "exclusiveMinimum": 0}}],
                "description": "per-channel std (> 0), in output channel order"},
        "fuse_normalization": {"type": "boolean"},
        "fit_model_size": {"enum": [None, "resize", "letterbox"]},
        "resizer": {"enum": list(RESIZERS), "description": "library that resizes: pillow, opencv (cv2.resize) "
                    "or torch-area (torch's interpolate(mode='area'), float)"},
        "size_rounding": {"enum": list(SIZE_ROUNDINGS),
                          "description": "torchvision: shorter side int(), crop offset round(); paddle: the reverse"},
        "letterbox_style": {"enum": list(LETTERBOX_STYLES),
                            "description": "center (ultralytics), top_left (YOLOX), pad_then_resize, height (PaddleOCR "
                                           "text lines)"},
        "pad_output": {"type": ["number", "null"], "description": "letterbox padding written after normalisation"},
        "limit_side": {"oneOf": [{"type": "null"}, _SIDE], "description": "PaddleOCR detector: side limit"},
        "limit_type": {"enum": list(LIMIT_TYPES), "description": "min: scale up until the shorter side reaches "
                       "limit_side; max: scale down until the longer side fits it"},
        "size_multiple": {"oneOf": [{"type": "null"}, _SIDE], "description": "round each side to a multiple"},
        "image_input": {"type": ["string", "null"]},
        "description": {"type": "string"},
        "source": {"type": "string"},
    },
}
