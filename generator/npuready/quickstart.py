"""`make quickstart`: run the pipeline on the bundled example models and print what it found."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import onnx


def lint_examples(target: str = "edge-10") -> str:
    """Lint every rule's bad and good example model (saved as files, as a user would) and render the report."""
    from npuready.lint import lint
    from npuready.lint.registry import RULES
    from npuready.lint.render.text import render

    reports = []
    with tempfile.TemporaryDirectory() as tmp:
        for rule in RULES.values():
            for kind, build in (("bad", rule.bad_example), ("good", rule.good_example)):
                path = Path(tmp) / f"{rule.id}_{kind}.onnx"
                onnx.save(build(), path)
                reports.append(lint(path, target=target))
        return render(reports).replace(tmp + "/", "")


def main() -> int:
    print("== npuready quickstart: lint the rules' example models (each bad one is flagged by its rule, "
          "each good one is clean) ==\n")
    print(lint_examples())
    return 0


if __name__ == "__main__":
    sys.exit(main())
