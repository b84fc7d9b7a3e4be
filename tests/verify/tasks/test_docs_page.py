"""docs/verify-tasks.md: one row per registered task metric, and the inference rules."""
from npuready.verify.tasks.docs_page import render
from npuready.verify.tasks.registry import TASKS


def test_every_task_has_a_row_with_its_docs_line_and_limit():
    text = render()
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert [r.split("`")[1] for r in rows] == list(TASKS)
    for row, m in zip(rows, TASKS.values()):
        assert m.doc in row and m.metric in row
    assert "| `regression` | SNR (worst output) | 20 dB | 6 dB |" in text
    assert "5. any other [1, T, C] → sequence" in text
