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


# ----- what is not a regular file is never replaced (run as root in CI containers) -----------------
import socket  # noqa: E402

from npuready.atomic import NotRegularFile, write_bytes  # noqa: E402


def _device(path):
    if os.geteuid() != 0:
        pytest.skip("mknod of a character device needs root")
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null twin inside tmp_path
    return path


def test_a_device_node_is_refused_and_stays_a_device(tmp_path):
    dev = _device(tmp_path / "null")
    with pytest.raises(NotRegularFile, match="null: is a character device, not a regular file"):
        write_text(dev, "x")
    assert stat.S_ISCHR(os.lstat(dev).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


def test_a_symlink_to_a_device_is_refused(tmp_path):
    dev = _device(tmp_path / "null")
    (tmp_path / "link").symlink_to(dev)
    with pytest.raises(NotRegularFile, match="character device"):
        write_text(tmp_path / "link", "x")
    assert stat.S_ISCHR(os.lstat(dev).st_mode) and (tmp_path / "link").is_symlink()


@pytest.mark.parametrize("kind, make", [
    ("a FIFO", lambda p: os.mkfifo(p)),
    ("a folder", lambda p: p.mkdir()),
    ("a socket", lambda p: socket.socket(socket.AF_UNIX).bind(str(p))),
])
def test_fifo_folder_and_socket_are_refused(kind, make, tmp_path):
    target = tmp_path / "t"
    make(target)
    with pytest.raises(NotRegularFile, match=f"t: is {kind}, not a regular file"):
        write_bytes(target, b"x")
    assert not target.is_file()


def test_a_symlinked_output_is_written_through_and_the_link_stays(tmp_path, umask_022):
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real.name)
    assert write_text(link, "new") == real
    assert link.is_symlink() and real.read_text() == "new" and link.read_text() == "new"


def test_a_dangling_symlink_creates_the_file_it_names(tmp_path):
    link = tmp_path / "link.txt"
    link.symlink_to("made.txt")
    write_text(link, "y")
    assert link.is_symlink() and (tmp_path / "made.txt").read_text() == "y"
