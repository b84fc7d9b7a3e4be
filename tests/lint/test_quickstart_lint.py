"""The quickstart's lint section: every rule's bad example is flagged by its rule, every good one is clean."""
from npuready.lint.registry import RULES
from npuready.quickstart import lint_examples


def test_quickstart_lints_every_example_pair():
    text = lint_examples()
    blocking = sum(r.severity.value == "ERROR" for r in RULES.values())
    assert f"{2 * len(RULES)} model(s): {blocking} blocked, {2 * len(RULES) - blocking} ok" in text
    for rid in RULES:
        assert f"{rid}_good.onnx  [target edge-10]  ok: 0 error(s), 0 warning(s)" in text
        assert f"    {rid}  {RULES[rid].title}" in text
    assert "/tmp" not in text
