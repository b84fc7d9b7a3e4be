"""Internal words a reader of the project's output cannot know, and where they hide.

The project started from founding documents numbered 000, 001, …; inside the team they were "the seeds". A reader
of the CLI help, the docs or the site has never seen them: user-facing text names the idea itself ("the founding
list of input formats", or just the rule). Random-number seeds stay seeds (``--seed 0``, "seeded order").
"""
from __future__ import annotations

import re

JARGON = re.compile(r"\bseed(?:'s\b|\s*-?\s*0\d\d\b)|\bthe\s+seed\b(?!\s+(?:value|number))", re.IGNORECASE)


def jargon_hits(text: str, width: int = 40) -> list[str]:
    """Every jargon occurrence in ``text`` with ``width`` characters of context either side."""
    return [text[max(0, m.start() - width):m.end() + width].replace("\n", " ") for m in JARGON.finditer(text)]
