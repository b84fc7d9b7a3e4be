"""Import a module of onnxruntime's bundled ``tools`` package without running that package's ``__init__``.

``onnxruntime/tools/__init__.py`` imports ``pytorch_export_helpers`` — and with it torch — whenever torch is
installed: about 8 s and 700 MiB before the first line of a checker or shape-inference tool runs. npuready
uses only torch-free tools (the NNAPI usability checker, symbolic shape inference), so it imports them
through a stand-in parent package that has the real folder as its path and no ``__init__`` code. The
stand-in stays registered (as ``sys.modules["onnxruntime.tools"]`` and ``onnxruntime.tools``) so later
``import onnxruntime.tools.<module>`` statements resolve through it too; the one name it lacks is the
``__init__``'s re-export ``infer_input_info`` (a PyTorch export helper npuready does not use).
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from pathlib import Path

_PARENT = "onnxruntime.tools"


def tools_dir() -> Path:
    """The installed ``onnxruntime/tools`` folder (found without importing onnxruntime)."""
    spec = importlib.util.find_spec("onnxruntime")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("onnxruntime is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "tools"


def import_tool(name: str) -> types.ModuleType:
    """``import_tool("mobile_helpers.usability_checker")`` → that module, torch not imported."""
    full = f"{_PARENT}.{name}"
    if full in sys.modules:
        return sys.modules[full]
    if _PARENT in sys.modules:  # the real package is already loaded: nothing left to avoid
        return importlib.import_module(full)
    import onnxruntime

    stand_in = types.ModuleType(_PARENT,
                                "onnxruntime's tools package, loaded without its __init__ (npuready.ort_tools)")
    stand_in.__path__ = [str(tools_dir())]
    stand_in.__package__ = _PARENT
    sys.modules[_PARENT] = stand_in
    onnxruntime.tools = stand_in
    return importlib.import_module(full)
