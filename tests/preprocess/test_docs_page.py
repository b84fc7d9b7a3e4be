from npuready.paths import repo_root
from npuready.preprocess.docs_page import DOC_PATH, render_markdown


def test_committed_preprocess_page_is_fresh():
    repo = repo_root()
    assert (repo / DOC_PATH).read_text(encoding="utf-8") == render_markdown(repo), \
        "docs/preprocess.md is stale: run python -m npuready.preprocess.docs_page"


def test_page_lists_every_preset_and_kind():
    from npuready.preprocess.doctor import KINDS
    from npuready.preprocess.presets import PRESETS

    text = render_markdown(repo_root())
    assert all(f"| `{name}` |" in text for name in PRESETS)
    assert all(f"| `{kind}` |" in text for kind in KINDS)
