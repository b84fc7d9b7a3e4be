"""`make quickstart`: run the pipeline on the bundled example models and print what it found."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import onnx


def main() -> int:
    from npuready.lint import lint
    from npuready.lint.registry import RULES
    from npuready.lint.render.text import render

    print("== npuready quickstart: lint the rules' example models (bad one must block, good one must pass) ==\n")
    reports = []
    with tempfile.TemporaryDirectory() as tmp:
        for rule in RULES.values():
            for kind, build in (("bad", rule.bad_example), ("good", rule.good_example)):
                path = Path(tmp) / f"{rule.id}_{kind}.onnx"
                onnx.save(build(), path)
                reports.append(lint(path, allow_batched_input=False))
        text = render(reports).replace(tmp + "/", "")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
