"""Two-commit diffs of key figures: exact statuses and deltas; bad revisions are InputError."""
import pytest
from history_repos import probes_repo

from npuready.errors import InputError
from npuready.history.compare import diff_revisions


def test_changed_added_and_same_figures_with_deltas(tmp_path):
    repo, hashes = probes_repo(tmp_path)
    diff = diff_revisions(repo, hashes[0], hashes[3])
    assert (diff.a.hash, diff.b.hash) == (hashes[0], hashes[3])
    rows = {(c.experiment, c.label): (c.a, c.b, c.status, c.delta) for c in diff.changes}
    assert rows == {
        ("probes", "probes"): (50, 52, "changed", 2),
        ("probes", "accepted by onnxruntime"): (50, 51, "changed", 1),
        ("probes", "failed"): (0, 1, "changed", 1),
        ("mr-x", "all sanity checks pass"): (None, True, "added", None),
        ("mr-x", "ONNX nodes"): (None, None, "absent", None),
    }
    assert diff.results_changed == ("probes",) and diff.only_a == () and diff.only_b == ("mr-x",)
    assert len(diff.moved()) == 4


def test_reversed_order_negates_and_identical_trees_move_nothing(tmp_path):
    repo, hashes = probes_repo(tmp_path)
    diff = diff_revisions(repo, hashes[2], hashes[1])  # readme commit vs rerun: the other direction works too
    assert [(c.label, c.a, c.b, c.delta) for c in diff.moved()] == [
        ("probes", 52, 50, -2), ("accepted by onnxruntime", 51, 50, -1), ("failed", 1, 0, -1)]
    assert diff_revisions(repo, "HEAD", hashes[3]).moved() == []


@pytest.mark.parametrize("rev,needle", [("nope", "REV_A 'nope': not a commit in"),
                                        ("-x", "REV_A '-x': not a git revision"),
                                        ("HEAD~9", "REV_A 'HEAD~9': not a commit in")])
def test_bad_revisions_are_input_errors_naming_the_revision(tmp_path, rev, needle):
    repo, _ = probes_repo(tmp_path)
    with pytest.raises(InputError, match=None) as raised:
        diff_revisions(repo, rev, "HEAD")
    assert needle in str(raised.value)


def test_true_and_one_are_different_values():
    from npuready.history.compare import _status

    assert [_status(True, 1), _status(1, 1.0), _status(None, 0), _status(0, None), _status(None, None)] == [
        "changed", "same", "added", "removed", "absent"]
