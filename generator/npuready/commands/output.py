"""Where a verb's report goes: ``--output FILE`` (atomically) or stdout. An unwritable path is bad input."""
from __future__ import annotations

import sys

from npuready.atomic import write_text
from npuready.errors import InputError


def emit(text: str, output: str | None) -> None:
    if not output:
        sys.stdout.write(text)
        return
    try:
        write_text(output, text)
    except OSError as exc:
        raise InputError(f"{output}: cannot write the report ({exc.strerror or exc})") from None
