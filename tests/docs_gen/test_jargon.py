"""User-facing text (CLI help of every verb, docs/*.md, the rendered site) says no internal jargon."""
import argparse
from pathlib import Path

import pytest

from npuready.cli import build_parser
from npuready.docs_gen.jargon import jargon_hits

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("text, hits", [
    ("the input-format contract (seed 004)", ["seed 004"]),
    ("The seed's checker looked only at Conv", ["The seed"]),
    ("inject each seed-004 mismatch", ["seed-004"]),
    ("--seed 0: sampling seed; a seeded order; torch seed 0; hands each task its seed; seeds: {}", []),
])
def test_the_pattern_tells_founding_documents_from_random_seeds(text, hits):
    assert [h.strip() for h in jargon_hits(text, width=0)] == hits


def _helps(parser: argparse.ArgumentParser, prefix: str = "npuready") -> dict[str, str]:
    out = {prefix: parser.format_help()}
    for action in parser._actions:  # argparse keeps sub-commands here; no public accessor
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.update(_helps(sub, f"{prefix} {name}"))
    return out


def test_cli_help_of_every_verb_has_no_jargon():
    helps = _helps(build_parser())
    assert len(helps) >= 20
    assert {verb: jargon_hits(text) for verb, text in helps.items() if jargon_hits(text)} == {}


def test_docs_have_no_jargon():
    pages = sorted((REPO / "docs").rglob("*.md"))
    assert len(pages) >= 10
    assert {str(p.relative_to(REPO)): jargon_hits(p.read_text(encoding="utf-8")) for p in pages
            if jargon_hits(p.read_text(encoding="utf-8"))} == {}


def test_rendered_site_has_no_jargon():
    from npuready.commands.site import build_all

    build, experiments_md = build_all(REPO / "experiments", REPO / "docs")
    pages = {rel: data.decode("utf-8") for rel, data in build.files.items() if rel.endswith(".html")}
    pages["docs/EXPERIMENTS.md"] = experiments_md
    assert len(pages) >= 2
    assert {rel: jargon_hits(text) for rel, text in pages.items() if jargon_hits(text)} == {}
