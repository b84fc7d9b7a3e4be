"""Text wrapped to the terminal: lines break at spaces with indented continuations, tables drop columns."""
from npuready.terminal import Column, block, overlong, table, width, wrap


def test_width_follows_columns_and_has_a_floor(monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    assert width() == 120
    monkeypatch.setenv("COLUMNS", "20")
    assert width() == 40
    assert width(80) == 80


def test_width_is_80_when_stdout_is_not_a_terminal(monkeypatch):
    import os
    import shutil

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(os, "get_terminal_size", lambda *a: (_ for _ in ()).throw(OSError("not a tty")))
    assert shutil.get_terminal_size((80, 24)).columns == 80 and width() == 80


def test_a_long_line_wraps_with_its_continuation_indented():
    line = "  note: " + " ".join(["word"] * 30)
    assert wrap(line, 40) == [
        "  note: word word word word word word",
        "      word word word word word word word",
        "      word word word word word word word",
        "      word word word word word word word",
        "      word word word",
    ]


def test_a_line_that_fits_is_kept_verbatim_and_a_long_token_is_not_cut():
    assert wrap("a    b", 40) == ["a    b"]
    path = "/" + "x" * 60
    assert wrap(f"file {path} end", 40) == ["file", f"    {path}", "    end"]
    assert overlong(block([f"file {path} end"], 40), 40) == []


def test_block_keeps_empty_lines_and_ends_with_a_newline():
    assert block(["a", "", "b"], 80) == "a\n\nb\n"


def test_table_drops_the_most_droppable_columns_first():
    cols = [Column("node", 20, "<"), Column("extra", 10, drop=2), Column("more", 10, drop=1), Column("cycles", 8)]
    lines, dropped = table(cols, [["a/very/long/node/name/x", "1", "2", "3"]], 40)
    assert dropped == ["extra"]
    assert lines == ["node                       more   cycles", "…ry/long/node/name/x          2        3"]
    lines, dropped = table(cols, [["n", "1", "2", "3"]], 80, indent="  ")
    assert dropped == []
    assert lines == ["  node                      extra       more   cycles",
                     "  n                             1          2        3"]
