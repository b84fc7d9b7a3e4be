"""docs/cost-vs-vela.md is generated from experiments/cost-vs-vela/result.json; fails when stale."""
from pathlib import Path

from npuready.docs_gen.cost_vs_vela import DOC_PATH, build

ROOT = Path(__file__).resolve().parents[2]


def test_cost_vs_vela_md_is_fresh():
    assert (ROOT / DOC_PATH).read_text(encoding="utf-8") == build(ROOT), \
        "docs/cost-vs-vela.md is stale: run python -m npuready.docs_gen.cost_vs_vela"
