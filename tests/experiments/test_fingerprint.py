"""The code fingerprint follows a module's npuready imports (also those inside functions) and changes with them."""
import sys

from npuready.experiments.fingerprint import code_fingerprint, module_files


def test_runner_files_are_its_transitive_npuready_imports():
    files = module_files("npuready.experiments.runners.cost_per_target")
    assert {"npuready", "npuready.experiments.runners.cost_per_target", "npuready.experiments.cost_models",
            "npuready.cost", "npuready.cost.model", "npuready.graph", "npuready.targets.load",
            "npuready.errors"} <= set(files)
    assert "npuready.experiments.runners.ptq_methods" not in files
    assert files["npuready.cost.model"].name == "model.py"


def test_fingerprint_changes_with_the_module_and_only_then(tmp_path, monkeypatch):
    mod = tmp_path / "fp_demo_module.py"
    mod.write_text("def f():\n    from npuready.errors import InputError\n    return InputError\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    files = module_files("fp_demo_module")
    # npuready/__init__.py imports npuready.lint lazily (inside a function): counted too, conservatively
    assert set(files) == {"fp_demo_module"} | set(module_files("npuready.errors"))
    assert {"npuready", "npuready.errors", "npuready.lint.api"} <= set(files)
    first = code_fingerprint("fp_demo_module")
    assert code_fingerprint("fp_demo_module") == first and len(first) == 64
    mod.write_text(mod.read_text() + "# changed\n")
    sys.modules.pop("fp_demo_module", None)
    assert code_fingerprint("fp_demo_module") != first
