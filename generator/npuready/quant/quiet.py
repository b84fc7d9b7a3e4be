"""Third-party log lines during a quantisation call: captured, not printed.

onnxruntime's quantiser logs through the *root* logger (``logging.warning(...)``), which also installs a
``WARNING:root:`` stderr handler the first time it runs when nobody configured logging. ``captured_logs``
gives the root logger one collecting handler for the duration of the call (so the default handler is never
installed and the caller's handlers see nothing from inside), then restores it. ``forward`` re-states the
records that matter through npuready's own logger; advice npuready already follows is dropped.
"""
from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

LOGGER = logging.getLogger("npuready.quant")

# onnxruntime's "Please consider (to run) pre-processing before quantization": npuready folds constants
# itself before calling it (quant.prepare.fold_constants), so this advice never applies.
FOLLOWED_ADVICE = ("pre-processing before quantization",)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def captured_logs() -> Iterator[list[logging.LogRecord]]:
    """Collect WARNING-and-above records reaching the root logger inside the block; print none of them."""
    root = logging.getLogger()
    collect = _Collect()
    saved = root.handlers[:]
    root.handlers[:] = [collect]
    try:
        yield collect.records
    finally:
        root.handlers[:] = saved


def forward(records: list[logging.LogRecord], source: str) -> None:
    """Re-state each record that is not advice npuready already follows, as ``SOURCE: message``."""
    for record in records:
        message = record.getMessage()
        if not any(advice in message for advice in FOLLOWED_ADVICE):
            LOGGER.log(record.levelno, "%s: %s", source, " ".join(message.split()))
