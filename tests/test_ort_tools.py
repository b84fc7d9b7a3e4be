"""npuready.ort_tools imports onnxruntime's tools without torch (their package __init__ imports it)."""
from __future__ import annotations

import subprocess
import sys

import pytest

_PROBE = """
import sys
from npuready.ort_tools import import_tool
uc = import_tool("mobile_helpers.usability_checker")
assert callable(uc.check_nnapi_partitions), "usability checker not loaded"
print("torch" in sys.modules)
"""


def test_usability_checker_loads_without_torch():
    pytest.importorskip("torch")  # only meaningful where torch is installed (the tools' __init__ would import it)
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_plain_import_statements_resolve_through_the_stand_in():
    from npuready.ort_tools import import_tool

    checker = import_tool("mobile_helpers.usability_checker")
    import onnxruntime.tools.mobile_helpers.usability_checker as real

    assert real is checker
