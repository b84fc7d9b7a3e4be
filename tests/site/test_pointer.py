import pytest

from npuready.errors import InputError
from npuready.site import pointer

DOC = {"a": {"b/c": [10, {"~d": 5}]}, "": 1}


def test_join_escapes_slash_and_tilde():
    assert pointer.join("/a", "b/c", 1, "~d") == "/a/b~1c/1/~0d"


def test_resolve_round_trips_escaped_tokens():
    assert pointer.resolve(DOC, pointer.join("/a", "b/c", 1, "~d")) == 5
    assert pointer.resolve(DOC, "/a/b~1c/0") == 10
    assert pointer.resolve(DOC, "") is DOC


def test_missing_path_raises_keyerror_or_returns_default():
    with pytest.raises(KeyError):
        pointer.resolve(DOC, "/a/nope")
    with pytest.raises(KeyError):
        pointer.resolve(DOC, "/a/b~1c/2")
    assert pointer.resolve(DOC, "/a/nope", None) is None
    assert pointer.exists(DOC, "/a/b~1c/1") and not pointer.exists(DOC, "/x")


def test_pointer_must_start_with_slash():
    with pytest.raises(InputError):
        pointer.split("a/b")
