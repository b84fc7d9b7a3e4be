import json
from pathlib import Path

from npuready.docs_gen.experiments import md_text, render_experiments_md
from npuready.paths import docs_dir, experiments_dir
from npuready.site.source import load_experiments

FIXTURES = Path(__file__).resolve().parents[1] / "site" / "fixtures" / "experiments"


def test_committed_experiments_md_is_what_the_stored_json_renders_to():
    expected = render_experiments_md(load_experiments(experiments_dir()))
    assert (docs_dir() / "EXPERIMENTS.md").read_text(encoding="utf-8") == expected, \
        "docs/EXPERIMENTS.md is stale: run 'npuready site'"


def test_tables_carry_the_stored_numbers_and_escape_untrusted_text():
    md = render_experiments_md(load_experiments(FIXTURES))
    assert "| total\\_cycles | 1,234,567 |" in md
    assert "| toy-cnn | 12,345 | 0.9125 |" in md
    assert "<script>" not in md and "<img" not in md
    assert "&lt;script&gt;alert('title')&lt;/script&gt;" in md
    assert "| [toy-cost](#toy-cost) | NPU analysis | Toy simulated cost | reference, simulated | `000000000000` |" in md


def test_md_text_escapes_pipes_and_newlines():
    assert md_text("a|b\nc") == "a\\|b c"


def test_fixture_results_follow_the_result_schema():
    from npuready.experiments.schema import validate_result

    for path in sorted(FIXTURES.glob("*/result.json")):
        validate_result(json.loads(path.read_text()), str(path))
