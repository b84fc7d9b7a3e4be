"""npuready: NPU readiness, cost and INT8 parity for vision models.

Public API (imported on first call, so ``import npuready`` stays cheap):
``npuready.lint(model_or_path, target=..., allow_batched_input=False)``.

``npuready.lint`` is also the name of the linter's package. Python's import system binds a package's
submodule as an attribute of its parent after importing it, which would replace the function with the
module after the first call (``TypeError: 'module' object is not callable`` on the second). The
package's module class below keeps the public function bound: the submodule stays reachable through
``sys.modules`` and every ``from npuready.lint... import ...`` statement.
"""
from __future__ import annotations

import sys
import types

from npuready.version import __version__  # noqa: F401 (the public attribute)

_PUBLIC_FUNCTIONS = frozenset({"lint"})


def lint(model, *args, **kwargs):
    """Lint an ONNX model (path, ``onnx.ModelProto`` or graph view) against an NPU target and return a
    ``LintReport``; the arguments are those of ``npuready.lint.api.lint`` (``target=``,
    ``allow_batched_input=``, ...). Raises ``npuready.errors.InputError`` on unusable input."""
    from npuready.lint.api import lint as _lint

    return _lint(model, *args, **kwargs)


class _Package(types.ModuleType):
    def __setattr__(self, name: str, value) -> None:
        if name in _PUBLIC_FUNCTIONS and isinstance(value, types.ModuleType):
            return  # the import system binding a submodule over a public function: keep the function
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
