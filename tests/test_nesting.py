"""Depth-bounded JSON/TOML parsing: one InputError line instead of RecursionError, at any depth."""
from __future__ import annotations

import json

import pytest

from npuready.errors import InputError
from npuready.inputs.json_file import parse_json
from npuready.nesting import depth, parsed
from npuready.inputs.toml_file import parse_toml, read_toml


def test_depth_counts_nested_containers_without_recursing():
    assert depth(1) == 0 and depth([]) == 1 and depth({"a": [1, {"b": []}]}) == 4
    deep = []
    for _ in range(100_000):  # deeper than any recursion limit
        deep = [deep]
    assert depth(deep) == 100_001


@pytest.mark.parametrize("levels", [65, 20_000, 50_000])
def test_json_deeper_than_the_budget_is_one_input_error(levels):
    with pytest.raises(InputError, match=r"^x.json: nested more than 64 levels deep"):
        parse_json(("[" * levels + "]" * levels).encode(), "x.json")


def test_json_at_the_budget_parses():
    assert depth(parse_json(("[" * 64 + "]" * 64).encode(), "x.json")) == 64


@pytest.mark.parametrize("text", ["a = " + "[" * 20_000 + "]" * 20_000, "a = " + "[" * 65 + "]" * 65])
def test_toml_deeper_than_the_budget_is_one_input_error(text):
    with pytest.raises(InputError, match=r"^t.toml: nested more than 64 levels deep"):
        parse_toml(text.encode(), "t.toml")


def test_toml_decoding_and_syntax_errors_name_the_byte_and_the_file():
    with pytest.raises(InputError, match=r"^t.toml: not UTF-8 text \(byte 0xff at offset 4\)"):
        parse_toml(b"a = \xff", "t.toml")
    with pytest.raises(InputError, match=r"^t.toml: not valid TOML"):
        parse_toml(b"[a", "t.toml")


def test_read_toml_checks_type_and_size_before_reading(tmp_path):
    import os

    fifo = tmp_path / "f.toml"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="is a FIFO, expected a regular TOML file"):
        read_toml(fifo)
    big = tmp_path / "big.toml"
    with open(big, "wb") as f:
        f.truncate(11)
    with pytest.raises(InputError, match="11 bytes, above the 10-byte budget"):
        read_toml(big, max_bytes=10)


def test_parsed_passes_other_errors_through():
    with pytest.raises(json.JSONDecodeError):
        parsed(lambda: json.loads("{"), "x")
