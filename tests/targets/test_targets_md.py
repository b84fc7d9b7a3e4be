"""docs/targets.md is generated from the target files; this fails when it is stale."""
from pathlib import Path

from npuready.docs_gen.targets import DOC_PATH, render_targets_md

ROOT = Path(__file__).resolve().parents[2]


def test_targets_md_is_fresh():
    committed = (ROOT / DOC_PATH).read_text(encoding="utf-8")
    assert committed == render_targets_md(), "docs/targets.md is stale: run python -m npuready.docs_gen.targets"


def test_targets_md_lists_every_target_with_sources():
    from npuready.targets import load_target, target_names

    text = render_targets_md()
    for name in target_names():
        assert f"## `{name}`" in text
        for key in load_target(name).sources:
            assert f"- **{key}**:" in text
