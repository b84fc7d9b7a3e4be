"""docs/rules/*.md are generated from the registry; this fails when they are stale."""
from __future__ import annotations

from npuready.docs_gen.rules import render_all, rules_dir
from npuready.lint.registry import RULES


def test_rule_docs_are_fresh():
    pages = render_all()
    folder = rules_dir()
    assert sorted(p.name for p in folder.glob("*.md")) == sorted(pages)
    stale = [name for name, text in pages.items() if (folder / name).read_text(encoding="utf-8") != text]
    assert stale == [], f"stale rule docs {stale}: run `python -m npuready.docs_gen.rules`"


def test_every_rule_page_has_what_why_fix_and_examples():
    pages = render_all()
    for rid, rule in RULES.items():
        page = pages[f"{rid}.md"]
        for heading in ("## What", "## Why", "## Fix", "## Examples"):
            assert heading in page
        assert rule.why in page and rule.fix in page
        assert f"({rid}.md)" in pages["README.md"]
