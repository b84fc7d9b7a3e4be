"""`make quickstart`: run the pipeline on the bundled defaults and print what it found.

Steps (each is the same CLI verb a user would run): lint the rules' example models and the committed
zoo exports; partition the YOLO-like example; cost the quickstart model on every target; quantize it
(INT8 PTQ, calibration from the committed Fashion-MNIST subset); verify the parity ladder float →
fake-quant → integer (C++ engine) on the committed test images. Everything runs from files in the
repository: no download, no training.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import onnx

QUICKSTART_MODEL = "tinycnn"


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


def _step(title: str) -> None:
    print(f"\n== {title} ==", flush=True)


def _cli(*argv: str) -> int:
    from npuready.cli import main

    code = main(list(argv))
    meaning = {0: "ok", 1: "the check failed: at least one ERROR or a failed gate", 2: "unusable input"}
    print(f"(exit code {code}: {meaning.get(code, 'unexpected')})", flush=True)
    return code


def _cost_table(model: Path) -> None:
    from npuready.cost import estimate
    from npuready.targets import target_names

    print(f"{'target':<16}{'cycles':>12}{'latency ms':>12}{'inferences/s':>14}  evidence")
    for target in target_names():
        rep = estimate(model, target)
        total = rep.total()
        print(f"{target:<16}{total['cycles']:>12,}{total['latency_s'] * 1e3:>12.4f}"
              f"{total['inferences_per_s']:>14,.0f}  simulated")


def main() -> int:
    from npuready.paths import repo_root, zoo_dir
    repo = repo_root()
    zoo = sorted(zoo_dir().glob("*.onnx"))
    model = zoo_dir() / f"{QUICKSTART_MODEL}.onnx"
    rel = lambda p: str(Path(p).relative_to(repo))  # noqa: E731

    _step("1/6 lint: each rule's bad example is flagged by exactly that rule, each good one is clean")
    print(lint_examples())
    _step("2/6 lint the committed zoo exports on edge-10 and on edge-10-nolut (no lookup tables)")
    _cli("lint", *map(rel, zoo), "--target", "edge-10")
    _cli("lint", *map(rel, zoo), "--target", "edge-10-nolut")
    with tempfile.TemporaryDirectory() as tmp:
        from npuready.partition.examples import EXAMPLES

        yolo = Path(tmp) / "yolo_like.onnx"
        onnx.save(EXAMPLES["yolo_like"](), yolo)
        _step("3/6 partition a YOLO-like detector whose graph still holds Sigmoid, decode and NMS")
        _cli("partition", str(yolo), "--target", "edge-10")
        _step(f"4/6 cost of {rel(model)} on every target (simulated; per-layer detail: npuready cost MODEL -t T)")
        _cost_table(model)
        qdq = Path(tmp) / f"{QUICKSTART_MODEL}.int8.onnx"
        _step(f"5/6 quantize {rel(model)} to INT8 (minmax observer, 256 stratified calibration images)")
        _cli("quantize", rel(model), "--method", "minmax", "--out", str(qdq))
        _step("6/6 verify: float → fake-quant → integer (C++ engine) on 1,000 committed test images; gate")
        code = _cli("verify", rel(model), str(qdq), "--engine", "cpp", "--images", "1000")
    print("\nNext: `make site` renders every stored experiment into site/index.html; "
          "`npuready VERB --help` documents each step.")
    return code


if __name__ == "__main__":
    sys.exit(main())
