from npuready.docs_gen.registry import GENERATORS, render_all, stale


def test_every_generated_file_is_fresh():
    assert stale() == []


def test_generators_cover_the_docs_folder():
    from npuready.paths import repo_root

    generated = set(render_all())
    on_disk = {str(p.relative_to(repo_root())) for p in (repo_root() / "docs").rglob("*.md")}
    # EXPERIMENTS.md is written by `npuready site` (its freshness is checked there).
    assert on_disk - generated == {"docs/EXPERIMENTS.md"}
    assert list(GENERATORS)[:2] == ["rules", "support"]
