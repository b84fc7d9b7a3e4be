"""Errors about a node name the file the node is in."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from npuready.errors import InputError


@contextmanager
def in_file(path) -> Iterator[None]:
    """Prefix an ``InputError`` raised inside with the file it concerns (a node name alone does not say which of
    the models a command read is at fault), unless the message already names it."""
    try:
        yield
    except InputError as exc:
        name = str(path)
        if str(exc).startswith(name):
            raise
        raise InputError(f"{name}: {exc}") from None
