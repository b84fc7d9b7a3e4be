"""Where a verb's report goes: ``--output FILE`` (atomically) or stdout (no option, ``-o -``, or a path that is
this process's stdout such as ``/dev/stdout`` when that is a pipe or terminal). An
unwritable path, or one that exists and is not a regular file (a device, FIFO, socket or folder), is bad
input; a symlink is written through to the file it ends at (``npuready.atomic``).

``check_result`` is the ending every ``--check`` verb shares (docs, run, site); ``progress`` the bar long
loops show on a terminal.
"""
from __future__ import annotations

import sys

from npuready.atomic import NotRegularFile, write_text
from npuready.errors import InputError


def _is_stdout(output: str) -> bool:
    """``output`` names this process's stdout (``/dev/stdout``, ``/proc/self/fd/1``) when it is not a regular file."""
    import os
    import stat

    try:
        st, out = os.stat(output), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no such path, or stdout is no real file (captured)
        return False
    return not stat.S_ISREG(st.st_mode) and os.path.samestat(st, out)


# argparse destinations that always name one output file, checked before any verb runs (``check_outputs``);
# a verb whose ``--out`` is a file (not a folder) lists it with ``set_defaults(output_files=("out",))``
OUTPUT_FILES = ("output", "write_baseline")


def check_outputs(args) -> None:
    """Refuse, before the work, an output file option naming something that exists and is not a regular file
    (a device such as /dev/null, a FIFO, a socket, a folder) — the write at the end would refuse it anyway,
    after minutes of work and the verb's other output. ``-`` and this process's stdout pass (``emit``)."""
    from npuready.atomic import resolve_target

    for dest in (*OUTPUT_FILES, *getattr(args, "output_files", ())):
        value = getattr(args, dest, None)
        if not isinstance(value, str) or not value or value == "-":
            continue
        if "\x00" in value:
            raise InputError(f"{value!r}: an output path cannot hold a NUL byte")
        if _is_stdout(value):
            continue
        try:
            resolve_target(value)
        except NotRegularFile as exc:  # exists and is not a regular file: exit 2, one line, nothing done
            what = {"output": "the report", "write_baseline": "the baseline"}.get(dest, "the output")
            raise InputError(f"{value}: cannot write {what} ({str(exc).removeprefix(f'{value}: ')})") from None


def emit(text: str, output: str | None) -> None:
    if not output or output == "-" or _is_stdout(output):
        sys.stdout.write(text)
        return
    try:
        write_text(output, text)
    except NotRegularFile as exc:
        raise InputError(f"{output}: cannot write the report ({str(exc).removeprefix(f'{output}: ')})") from None
    except OSError as exc:
        raise InputError(f"{output}: cannot write the report ({exc.strerror or exc})") from None


def check_result(problems: list[str], fresh: str) -> int:
    """Each problem on stderr (exit 1), or the one ``fresh`` line on stdout when there is none (exit 0)."""
    for line in problems:
        print(line, file=sys.stderr)
    if not problems:
        print(fresh)
    return 1 if problems else 0


def progress():
    """``wrap(items, description)``: a transient rich progress bar on stderr when it is a terminal, else the
    items unchanged (logs and pipes stay clean)."""
    if not sys.stderr.isatty():
        return lambda items, description: items

    def wrap(items, description):
        from rich.progress import track

        return track(items, description=description, transient=True)
    return wrap
