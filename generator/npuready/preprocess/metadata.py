"""What an exporter wrote into the model about its input: ONNX ``metadata_props``, read and shown.

Exporters record preprocessing facts as free-form key/value strings: ultralytics writes ``imgsz``,
``stride``, ``task``, ``batch`` and the class ``names``; PaddleOCR's exports carry the recogniser's
``character`` dictionary (PaddleClas exports their label list under the same key); Windows ML / WinMLTools
write ``Image.BitmapPixelFormat`` (Bgr8, Rgb8, Gray8) and ``Image.NominalPixelRange``; others write
``mean``/``std`` or a colour order. ``read_metadata`` parses those keys (other keys are counted, not
interpreted) and, where they name an input format, suggests the preset - and the ``--input-shape`` pin
when the graph leaves the size the metadata states dynamic.
"""
from __future__ import annotations

import ast
import json
import os
from dataclasses import dataclass
from typing import Any

import onnx

#: keys whose value says something about the input, as (key, what it is)
KNOWN = {
    "imgsz": "input size", "stride": "stride", "task": "task", "batch": "batch", "names": "class names",
    "character": "label dictionary", "mean": "mean", "std": "std", "color_format": "colour order",
    "colour_order": "colour order", "channel_order": "colour order", "Image.BitmapPixelFormat": "pixel format",
    "Image.NominalPixelRange": "pixel range", "Image.ColorSpaceGamma": "colour space",
}


@dataclass(frozen=True)
class Suggestion:
    preset: str
    why: str
    pins: str | None = None  # e.g. "images=1,3,320,320"

    @property
    def flags(self) -> str:
        return f"--preset {self.preset}" + (f" --input-shape {self.pins}" if self.pins else "")


@dataclass(frozen=True)
class ModelMetadata:
    exporter: str | None                 # who wrote it, when the metadata or producer says
    producer: str                        # ModelProto.producer_name/version as written
    facts: tuple[tuple[str, Any], ...]   # recognised keys, values parsed
    other_keys: tuple[str, ...]          # everything else (author, date, licence, ...)
    suggestion: Suggestion | None

    def lines(self) -> list[str]:
        """'model metadata: imgsz [320, 320] (ultralytics)' and friends; [] when there is nothing to say."""
        who = f" ({self.exporter})" if self.exporter else ""
        out = [f"model metadata: {key} {_shown(value)}{who}" for key, value in self.facts]
        if self.other_keys and (self.facts or self.exporter):
            out.append(f"model metadata: {len(self.other_keys)} other key(s) ({', '.join(self.other_keys)}){who}")
        if self.suggestion:
            out.append(f"model metadata suggests {self.suggestion.flags}: {self.suggestion.why}")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"exporter": self.exporter, "producer": self.producer,
                "facts": {k: v for k, v in self.facts}, "other_keys": list(self.other_keys),
                "suggestion": None if self.suggestion is None else
                {"preset": self.suggestion.preset, "why": self.suggestion.why, "pins": self.suggestion.pins}}


def _parse(text: str) -> Any:
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return text


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return f"{len(value)} entries"
    if isinstance(value, str) and "\n" in value:
        return f"{len(value.splitlines())} entries"
    return str(list(value)) if isinstance(value, tuple) else str(value)


def _input(model: onnx.ModelProto) -> tuple[str, list[Any]] | None:
    init = {i.name for i in model.graph.initializer}
    for i in model.graph.input:
        if i.name not in init and i.type.HasField("tensor_type"):
            dims = [d.dim_value if d.HasField("dim_value") else (d.dim_param or None)
                    for d in i.type.tensor_type.shape.dim]
            return i.name, dims
    return None


def _suggest(facts: dict[str, Any], exporter: str | None, model: onnx.ModelProto) -> Suggestion | None:
    inp = _input(model)
    if exporter == "ultralytics" and facts.get("task") in ("detect", "segment", "pose", "obb", None):
        size = facts.get("imgsz")
        pins = None
        if inp and isinstance(size, (list, tuple)) and len(size) == 2 and len(inp[1]) == 4:
            name, dims = inp
            batch = facts.get("batch") if isinstance(facts.get("batch"), int) else 1
            if not all(isinstance(d, int) and d > 0 for d in dims[2:]):
                pins = f"{name}={batch},3,{size[0]},{size[1]}"
        return Suggestion("yolov8", "an ultralytics export: its predictor letterboxes to imgsz (pad 114), RGB, "
                                    "x/255 (a wrapper's own code may differ)", pins)
    if "character" in facts and inp and len(inp[1]) == 4:
        h, w = inp[1][2], inp[1][3]
        if h in (48, None) or isinstance(h, str):
            return Suggestion("paddleocr-rec", "a PaddleOCR text-line model (label dictionary, height 48 or "
                                               "dynamic): BGR, height 48, (x/255 - 0.5)/0.5, right padding",
                              None if isinstance(w, int) and w > 0 else f"{inp[0]}=1,3,48,320")
    return None  # mean/std or a pixel format alone are shown, but name no one preset


def read_metadata(model: "str | os.PathLike | onnx.ModelProto") -> ModelMetadata:
    """The metadata of ``model`` (a path is read without external data)."""
    m = model if isinstance(model, onnx.ModelProto) else onnx.load(os.fspath(model), load_external_data=False)
    props = {p.key: p.value for p in m.metadata_props}
    facts = {k: _parse(v) for k, v in props.items() if k in KNOWN}
    if "character" in facts and not isinstance(facts["character"], str):
        facts["character"] = props["character"]  # a newline-separated dictionary, not a literal
    author = props.get("author", "") + " " + props.get("description", "")
    exporter = ("ultralytics" if "ultralytics" in author.lower()
                else "PaddlePaddle" if "character" in props or m.producer_name == "PaddlePaddle"
                else "WinMLTools" if any(k.startswith("Image.") for k in props) else None)
    producer = " ".join(x for x in (m.producer_name, m.producer_version) if x)
    return ModelMetadata(exporter, producer, tuple(facts.items()),
                         tuple(k for k in props if k not in KNOWN), _suggest(facts, exporter, m))
