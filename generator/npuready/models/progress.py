"""One progress bar helper for training loops: tqdm on stderr, disabled when stderr is not a TTY."""
from __future__ import annotations

import sys
from typing import Iterable, TypeVar

from tqdm import tqdm

T = TypeVar("T")


def progress_bar(items: Iterable[T], description: str, enabled: bool = True) -> Iterable[T]:
    return tqdm(items, desc=description, file=sys.stderr, leave=False,
                disable=not (enabled and sys.stderr.isatty()))
