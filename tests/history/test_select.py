"""Row selectors in key-figure addresses: exact picks, absent on no match or an ambiguous match."""
import pytest

from npuready.history.select import concrete, select

DOC = {"results": {"rows": [{"model": "a", "target": "t1", "cycles": 10},
                            {"model": "a", "target": "t2", "cycles": 20},
                            {"model": "zoo/b.onnx", "target": "t1", "cycles": 30, "n": 3}]}}


def test_a_selector_picks_the_row_whose_fields_match_wherever_it_sits():
    assert concrete(DOC, "/results/rows/[model=a,target=t2]/cycles") == "/results/rows/1/cycles"
    assert select(DOC, "/results/rows/[model=a,target=t2]/cycles") == 20
    assert select(DOC, "/results/rows/[model=zoo~1b.onnx]/cycles") == 30
    assert select(DOC, "/results/rows/[n=3]/model") == "zoo/b.onnx"  # compared as text
    reordered = {"results": {"rows": list(reversed(DOC["results"]["rows"]))}}
    assert select(reordered, "/results/rows/[model=a,target=t2]/cycles") == 20


def test_no_match_an_ambiguous_match_or_a_missing_key_read_as_absent():
    assert select(DOC, "/results/rows/[model=c]/cycles", "absent") == "absent"
    assert select(DOC, "/results/rows/[model=a]/cycles", "absent") == "absent"  # two rows
    assert select(DOC, "/results/rows/[model=a,target=t1]/macs", "absent") == "absent"
    assert select(DOC, "/results/[model=a]/cycles", "absent") == "absent"  # not a list
    assert select(DOC, "/results/rows/0/cycles") == 10  # plain pointers still work


def test_a_malformed_selector_is_refused():
    with pytest.raises(ValueError, match="write \\[key=value"):
        select(DOC, "/results/rows/[model]/cycles")
