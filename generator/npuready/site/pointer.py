"""JSON Pointer (RFC 6901) lookup and construction: the address of every number on the page."""
from __future__ import annotations

from typing import Any

from npuready.errors import InputError


def escape(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def join(base: str, *tokens: str | int) -> str:
    return base + "".join("/" + escape(t) for t in tokens)


def split(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise InputError(f"JSON pointer '{pointer}': must start with '/'")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


_MISSING = object()


def resolve(doc: Any, pointer: str, default: Any = _MISSING) -> Any:
    """The value at ``pointer`` in ``doc``; raises KeyError naming the pointer unless ``default`` is given."""
    node = doc
    for token in split(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            if default is not _MISSING:
                return default
            raise KeyError(pointer)
    return node


def exists(doc: Any, pointer: str) -> bool:
    absent = object()
    return resolve(doc, pointer, absent) is not absent
