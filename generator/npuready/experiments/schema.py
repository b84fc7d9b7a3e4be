"""JSON schema of ``experiments/<id>/result.json`` and its validator."""
from __future__ import annotations

from typing import Any

from npuready.errors import InputError
from npuready.evidence import EVIDENCE
from npuready.experiments.spec import VIEWS

SCHEMA_VERSION = 1

RESULT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "npuready experiment result",
    "type": "object",
    "required": ["schema_version", "id", "title", "summary", "view", "spec", "spec_sha256", "provenance",
                 "results", "timing"],
    "additionalProperties": False,
    "properties": {
        "schema_version": {"const": SCHEMA_VERSION},
        "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"},
        "title": {"type": "string", "minLength": 1},
        "summary": {"type": "string", "minLength": 1},
        "view": {"enum": list(VIEWS)},
        "spec": {"type": "object"},
        "spec_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "provenance": {
            "type": "object",
            "required": ["git", "packages", "tools", "inputs", "machine", "seeds"],
            "properties": {
                "git": {"type": "object"},
                "packages": {"type": "object", "additionalProperties": {"type": "string"}},
                "tools": {"type": "object", "additionalProperties": {"type": "string"}},
                "inputs": {"type": "object", "additionalProperties": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
                "machine": {"type": "object"},
                "seeds": {"type": "object", "additionalProperties": {"type": "integer"}},
                # the runner and every npuready source file it imports (repository path -> SHA-256);
                # absent in results produced before it was recorded
                "code": {
                    "type": "object",
                    "required": ["runner", "files"],
                    "additionalProperties": False,
                    "properties": {
                        "runner": {"type": "string", "minLength": 1},
                        "files": {"type": "object",
                                  "additionalProperties": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
                    },
                },
            },
        },
        "results": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "required": ["evidence"],
                "properties": {"evidence": {"enum": list(EVIDENCE)}},
            },
        },
        "timing": {
            "type": "object",
            "properties": {"evidence": {"const": "measured"}},
        },
        # present only when some task failed twice: its key and error; the results hold the other tasks
        "failed_tasks": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["task", "error", "attempts"],
                "additionalProperties": False,
                "properties": {"task": {"type": "string"}, "error": {"type": "string"},
                               "attempts": {"type": "integer", "minimum": 1}},
            },
        },
    },
}


def validate_result(doc: Any, label: str = "result") -> None:
    """Raise InputError naming the first schema violation. Also refuses NaN/inf numbers."""
    import jsonschema

    try:
        jsonschema.validate(doc, RESULT_SCHEMA)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "<root>"
        raise InputError(f"{label}: schema violation at {where}: {exc.message}") from None
    _finite(doc, label, "")


def _finite(value: Any, label: str, where: str) -> None:
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        raise InputError(f"{label}: non-finite number at {where or '<root>'}; store null and say why instead")
    if isinstance(value, dict):
        for k, v in value.items():
            _finite(v, label, f"{where}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _finite(v, label, f"{where}/{i}")
