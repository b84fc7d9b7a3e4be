"""What renderers may need beyond the reports: where SARIF URIs are relative to and where rule pages live."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class RenderOptions:
    sarif_root: Path | None = None  # SARIF artifact URIs are relative to this folder (default: git root or cwd)
    rules_url: str | None = None    # helpUri = rules_url + "<ID>.md" (default: the rule page in this checkout)
