"""What a runner gets: its params, input hashing, tool versions, timings and progress bars."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, TypeVar

from npuready.data.sha import sha256_file
from npuready.errors import InputError

T = TypeVar("T")


@dataclass
class RunContext:
    """Mutable collector handed to a runner; the runner returns the ``results`` dict itself."""

    experiment_id: str
    params: Mapping[str, Any]
    repo: Path
    inputs: dict[str, str] = field(default_factory=dict)
    tools: dict[str, str] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    seeds: dict[str, int] = field(default_factory=dict)
    show_progress: bool = True

    def input(self, path: str | Path) -> Path:
        """Record the SHA-256 of an input file (path stored relative to the repo when inside it). The file
        must be a regular file within ``budget.MAX_MODEL_BYTES``, checked before it is hashed (a FIFO or
        ``/dev/zero`` would hang the run)."""
        from npuready.inputs import budget
        from npuready.inputs.files import regular_file

        p = Path(path)
        if not p.is_absolute():
            p = self.repo / p
        size = regular_file(p, f"experiment '{self.experiment_id}': input {path}", what="input file").stat().st_size
        if size > budget.MAX_MODEL_BYTES:
            raise InputError(f"experiment '{self.experiment_id}': input {path}: {size:,} bytes, above the "
                             f"{budget.MAX_MODEL_BYTES:,}-byte budget for one input file")
        try:
            key = str(p.resolve().relative_to(self.repo.resolve()))
        except ValueError:
            key = str(p)
        self.inputs[key] = sha256_file(p)
        return p

    def tool(self, name: str, version: str) -> None:
        self.tools[name] = str(version)

    def seed(self, name: str, value: int) -> int:
        self.seeds[name] = int(value)
        return int(value)

    def timing(self, key: str, seconds: float) -> None:
        self.timings[key] = round(float(seconds), 6)

    def progress(self, items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
        if not (self.show_progress and sys.stderr.isatty()):
            yield from items
            return
        from rich.progress import Progress

        if total is None and hasattr(items, "__len__"):
            total = len(items)  # type: ignore[arg-type]
        with Progress(transient=True) as bar:
            task = bar.add_task(f"{self.experiment_id}: {description}", total=total)
            for item in items:
                yield item
                bar.advance(task)
