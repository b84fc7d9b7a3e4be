"""The public API: ``npuready.lint`` is the function on every call, whatever got imported before."""
import subprocess
import sys

from npuready.paths import repo_root

_DRIVER = """
import npuready
model = "zoo/tinycnn.onnx"
first = npuready.lint(model)
second = npuready.lint(model, target="edge-10")
import npuready.lint.rules
from npuready.lint.registry import RULES
third = npuready.lint(model)
print(type(npuready.lint).__name__, first.target, second.target, third.target,
      len(third.findings) == len(first.findings))
"""


def test_public_lint_works_on_every_call_in_a_fresh_process():
    proc = subprocess.run([sys.executable, "-c", _DRIVER], capture_output=True, text=True, cwd=repo_root())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["function", "edge-10", "edge-10", "edge-10", "True"]


def test_public_lint_survives_an_import_of_the_linter_package_in_process():
    import npuready
    import npuready.lint.api  # noqa: F401  (binds the package as an attribute in plain Python)
    from npuready.lint import LintReport

    report = npuready.lint(repo_root() / "zoo" / "tinycnn.onnx")
    assert isinstance(report, LintReport) and callable(npuready.lint)


def test_other_attributes_bind_normally():
    import npuready

    npuready.some_attribute_for_test = 1
    try:
        assert npuready.some_attribute_for_test == 1
    finally:
        del npuready.some_attribute_for_test
