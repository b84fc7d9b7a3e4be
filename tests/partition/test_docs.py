from pathlib import Path

from npuready.partition.docs import DOC_PATH, build

REPO = Path(__file__).resolve().parents[2]


def test_partition_vs_nnapi_doc_is_fresh():
    assert (REPO / DOC_PATH).read_text(encoding="utf-8") == build(), "run: python -m npuready.partition.docs"
