"""CSV downloads (site tables, a model page's per-layer table) quote cells and defuse spreadsheet formulas
(OWASP CSV injection): a cell starting with = + - @ tab or CR gets a leading ' inside quotes."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ASSETS = Path(__file__).resolve().parents[2] / "generator" / "npuready" / "site" / "assets"


def _csv_cell():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    source = (ASSETS / "site.js").read_text(encoding="utf-8")
    fn = re.search(r"  function csvCell\(v\) \{.*?\n  \}  /\* end csvCell \*/", source, re.S).group(0)

    def run(values):
        script = fn + f"\nprocess.stdout.write(JSON.stringify({json.dumps(values)}.map(csvCell)));"
        return json.loads(subprocess.run([node, "-e", script], capture_output=True, text=True, check=True).stdout)
    return run


def test_formula_looking_cells_are_defused_and_plain_ones_untouched():
    cells = ["=HYPERLINK(\"http://x\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx", "\rx",
             "conv1", "a,b", 'say "hi"', "-3.5", "+7", "1e-3", 42, None, ""]
    assert _csv_cell()(cells) == [
        '"\'=HYPERLINK(""http://x"")"', '"\'+1+cmd|\' /C calc\'!A0"', '"\'-2+3"', '"\'@SUM(A1)"', '"\'\tx"',
        '"\'\rx"', "conv1", '"a,b"', '"say ""hi"""', "-3.5", "+7", "1e-3", "42", "", ""]


def test_both_csv_writers_use_the_one_cell_function():
    assert "window.npuready.csvCell(s)" in (ASSETS / "tables.js").read_text(encoding="utf-8")
    assert "window.npuready.csvCell(v)" in (ASSETS / "layertable.js").read_text(encoding="utf-8")
