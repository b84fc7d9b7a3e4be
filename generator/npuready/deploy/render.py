"""Render a deploy result as text (JSON is ``DeployResult.to_dict``)."""
from __future__ import annotations

from npuready.deploy.pipeline import DeployResult
from npuready.terminal import block

MARK = {"passed": "ok", "blocked": "BLOCKED", "recorded": "--"}


def render_text(result: DeployResult, width: int | None = None) -> str:
    """The result for people: wrapped to ``width`` columns (default: the terminal's, 80 when not a terminal)."""
    lines = [f"Deploy {result.name} ({result.model}) on {result.target}", f"  sha256 {result.model_sha256}"]
    for s in result.stages:
        lines.append(f"  [{MARK[s.status]:>7}] {s.stage:<10} {s.summary}")
    if result.registered:
        lines.append(f"REGISTERED in {result.registry}/index.json as {result.name} / {result.target}")
    else:
        lines.append(f"NOT REGISTERED: blocked at {result.blocked_stage}; reason stored under 'rejections' in "
                     f"{result.registry}/index.json")
    lines.append(f"  reproduce: {result.command}")
    return block(lines, width)
