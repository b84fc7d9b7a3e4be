"""One readable line for the first JSON Schema violation of a document (jsonschema does the validating)."""
from __future__ import annotations

from typing import Any

_TYPES = {"string": "a string", "integer": "an integer", "number": "a number", "object": "an object",
          "array": "a list", "boolean": "true or false", "null": "null"}


def _where(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _expected(error) -> str:
    if error.validator == "type":
        kinds = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        return f"expected {' or '.join(_TYPES.get(k, k) for k in kinds)}, got {error.instance!r:.60}"
    if error.validator == "required":
        return error.message.replace(" is a required property", " is missing")
    if error.validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return f"{error.instance!r} is outside the allowed range ({error.validator} {error.validator_value})"
    if error.validator == "minItems":
        return (f"needs at least {error.validator_value} entr{'y' if error.validator_value == 1 else 'ies'}, "
                f"got {len(error.instance)}")
    if error.validator == "maxItems":
        return f"has {len(error.instance):,} entries, above the limit of {error.validator_value:,}"
    if error.validator == "enum":
        return f"expected one of {error.validator_value}, got {error.instance!r:.60}"
    if error.validator == "additionalProperties":
        unknown = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        return f"unknown field{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; known: " + \
            ", ".join(sorted(error.schema.get("properties", {})))
    return error.message[:200]


def first_error(schema: dict[str, Any], doc: Any) -> str | None:
    """``"samples[3].file: expected a string, got 42"`` for the most relevant violation, or None."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(schema).iter_errors(doc))
    if error is None:
        return None
    return f"{_where(error.absolute_path)}: {_expected(error)}"
