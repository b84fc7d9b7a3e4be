import os
import stat

import pytest

from npuready.atomic import write_json, write_text


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_new_file_gets_the_umask_mode_like_open_would(tmp_path, umask_022):
    path = write_json(tmp_path / "report.json", {"a": 1})
    assert _mode(path) == 0o644
    assert path.read_text() == '{\n  "a": 1\n}\n'


def test_a_replaced_file_keeps_its_mode(tmp_path, umask_022):
    path = tmp_path / "page.html"
    path.write_text("old")
    path.chmod(0o640)
    write_text(path, "new")
    assert _mode(path) == 0o640 and path.read_text() == "new"


def test_no_temporary_file_is_left_behind(tmp_path, umask_022):
    write_text(tmp_path / "x.txt", "y")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.txt"]
