import json

import pytest

from npuready.errors import InputError
from npuready.site.source import load_docs, load_experiments


def _write(tmp_path, exp_id, doc):
    (tmp_path / exp_id).mkdir()
    (tmp_path / exp_id / "result.json").write_text(doc if isinstance(doc, str) else json.dumps(doc))


GOOD = {"id": "a", "title": "t", "summary": "s", "view": "npu", "results": {"x": {"evidence": "measured", "n": 1}}}


def test_loads_results_sorted_by_id(tmp_path):
    _write(tmp_path, "b", {**GOOD, "id": "b"})
    _write(tmp_path, "a", GOOD)
    exps = load_experiments(tmp_path)
    assert list(exps) == ["a", "b"] and exps["a"].evidence() == ["measured"]


@pytest.mark.parametrize("doc, message", [
    ("{not json", "a/result.json: not valid JSON"),
    ({**GOOD, "id": "other"}, "id 'other' must equal its folder name 'a'"),
    ({**GOOD, "view": "web"}, "view 'web' is not one of models, npu, integer, records"),
    ({**GOOD, "results": {"x": {"n": 1}}}, "results section 'x' needs evidence"),
    ({k: v for k, v in GOOD.items() if k != "summary"}, "missing 'summary'"),
])
def test_malformed_results_are_input_errors_naming_the_file(tmp_path, doc, message):
    _write(tmp_path, "a", doc)
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        load_experiments(tmp_path)


def test_docs_are_found_recursively(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "R1.md").write_text("# R1\n")
    (tmp_path / "support.md").write_text("# S\n")
    assert list(load_docs(tmp_path)) == ["rules/R1", "support"]


def test_a_deeply_nested_current_result_is_one_input_error(tmp_path):
    import pytest as _pytest

    from npuready.errors import InputError
    from npuready.site.source import load_experiments

    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "result.json").write_text("[" * 20000 + "]" * 20000)
    with _pytest.raises(InputError, match="nested more than 64 levels deep"):
        load_experiments(tmp_path)
