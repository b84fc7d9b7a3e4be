"""A rerun compared with the committed result: identical apart from timing and the commit, or the first
differing JSON pointer; `npuready run --out DIR` leaves experiments/ alone and `--compare DIR` lists the verdicts."""
import json

from npuready.cli import main
from npuready.experiments.compare import compare_docs, comparable, first_difference
from npuready.paths import experiments_dir

DOC = {"id": "x", "provenance": {"git": {"commit": "aaa"}, "inputs": {"a/b.onnx": "1"}},
       "results": {"rows": [{"n": 1}, {"n": 2}], "a~b/c": 3}, "timing": {"total_s": 1.0}}


def _with(**changes):
    doc = json.loads(json.dumps(DOC))
    for pointer, value in changes.items():
        *parents, last = pointer.split(".")
        target = doc
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[last] = value
    return doc


def test_timing_and_commit_are_ignored_everything_else_counts():
    rerun = _with(**{"timing.total_s": 9.0, "provenance.git.commit": "bbb"})
    row = compare_docs("x", DOC, rerun)
    assert row.identical and row.first_difference is None
    assert (row.committed_commit, row.reproduced_commit) == ("aaa", "bbb")
    assert "timing" not in comparable(DOC) and comparable(DOC)["provenance"] == {"inputs": {"a/b.onnx": "1"}}


def test_first_difference_is_a_json_pointer():
    assert first_difference(DOC, _with(**{"results.rows": [{"n": 1}, {"n": 3}]})) == "/results/rows/1/n"
    assert first_difference(DOC, _with(**{"results.a~b/c": 4})) == "/results/a~0b~1c"
    assert first_difference(DOC, _with(**{"results.rows": [{"n": 1}]})) == "/results/rows/1"
    assert first_difference({"a": 1}, {"a": 1.0}) == "/a"  # 1 and 1.0 serialise differently
    assert first_difference(DOC, {**DOC, "failed_tasks": []}) == "/failed_tasks"
    assert compare_docs("x", DOC, _with(**{"provenance.inputs": {}})).first_difference == "/provenance/inputs/a~1b.onnx"


def test_a_code_fingerprint_difference_is_told_apart_from_a_value_difference():
    code = {"files": {"generator/npuready/x.py": "1"}}
    base = _with(**{"provenance.code": code})
    newer = _with(**{"provenance.code": {"files": {"generator/npuready/x.py": "2"}}})
    row = compare_docs("x", base, newer)
    assert (row.identical, row.first_difference, row.first_value_difference) == (
        False, "/provenance/code/files/generator~1npuready~1x.py", None)
    both = _with(**{"provenance.code": {"files": {}}, "results.rows": [{"n": 1}, {"n": 5}]})
    row = compare_docs("x", base, both)
    assert (row.first_difference, row.first_value_difference) == ("/provenance/code/files/generator~1npuready~1x.py",
                                                                    "/results/rows/1/n")
    assert compare_docs("x", base, base).first_value_difference is None


def test_run_out_writes_elsewhere_and_compare_lists_identical_and_differs(tmp_path, capsys):
    committed = (experiments_dir() / "probes" / "result.json").read_bytes()
    out = tmp_path / "rerun"
    assert main(["run", "probes", "norm-fusion", "--serial", "--out", str(out)]) == 0
    assert (experiments_dir() / "probes" / "result.json").read_bytes() == committed
    capsys.readouterr()
    assert main(["run", "probes", "norm-fusion", "--compare", str(out)]) == 0
    assert capsys.readouterr().out == ("probes\tidentical\nnorm-fusion\tidentical\n"
                                       "2 of 2 result(s) identical apart from timing and the commit they ran at\n")
    doc = json.loads((out / "probes" / "result.json").read_text())
    doc["results"]["probes"]["summary"]["accepted"] -= 1
    (out / "probes" / "result.json").write_text(json.dumps(doc))
    assert main(["run", "probes", "--compare", str(out)]) == 1
    assert capsys.readouterr().out.splitlines()[0] == "probes\tdiffers at /results/probes/summary/accepted"


def test_compare_names_a_missing_reproduction(tmp_path, capsys):
    assert main(["run", "probes", "--compare", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"npuready run: error: {tmp_path}/probes/result.json: no result.json; "
                                       "run the experiment into that folder first\n")


def test_no_committed_result_keeps_wall_seconds_outside_its_timing_block():
    """A rerun may change only the timing block; a 'timing' object inside the results would differ every time."""
    found = []

    def walk(node, pointer):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "timing" or key == "report_s":
                    found.append(f"{pointer}/{key}")
                walk(value, f"{pointer}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{pointer}/{i}")

    for path in sorted(experiments_dir().glob("*/result.json")):
        walk(json.loads(path.read_text())["results"], f"{path.parent.name}:/results")
    assert found == []
