"""What may differ between two runs that stored the same values: the commit a result was produced at.

``content_key(data)`` masks it in a generated file (the site's pages and data files, docs/EXPERIMENTS.md),
so ``npuready site --check`` compares content, not the commit: rerunning an experiment that stores identical values
leaves the site fresh. Everything else — every value, timing included — is content.
"""
from __future__ import annotations

import re

MASK = b"<commit>"
COMMIT_POINTER = "/provenance/git/commit"  # where a result stores the commit it was produced at
_PATTERNS = (
    re.compile(rb'("commit":)"[^"\\]*"'),  # data/<id>.js: compact, sorted JSON (embed.script_js)
    # the records tab (views/records.js: in a JSON string)
    re.compile(rb'(<code class=\\?"commit\\?">)[^<]*(?=</code>)'),
    re.compile(rb'(\| )`[0-9a-f]{7,40}`(?= \|$)', re.M),  # EXPERIMENTS.md's index: the last column
)


def content_key(data: bytes) -> bytes:
    """``data`` with every stored commit replaced by the same mask."""
    for pattern in _PATTERNS:
        data = pattern.sub(lambda m: m.group(1) + MASK, data)
    return data
