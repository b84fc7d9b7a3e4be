"""docs/bitexact-realworld.md is rendered from the experiment's result (numbers read, never typed)."""
from npuready.docs_gen.bitexact_realworld import render
from npuready.experiments.context import RunContext
from npuready.experiments.runners.bitexact_realworld import merge
from npuready.paths import repo_root


def _ran(tensors, mismatched):
    return {"status": "ran", "weights": "random-initialised", "library": "timm", "images": 100, "integer_ops": 7,
            "tensors_compared": tensors, "tensors_mismatched": mismatched, "elements_compared": 12345,
            "elements_mismatched_propagated": 3 * mismatched, "cpp_vs_numpy": {"tensors_mismatched": 0},
            "inputs": "sample-photo crops through preset classification",
            "margins": {"agreement": 0.97, "margin_median_steps": 8.25}}


def test_page_lists_every_model_with_its_counts_and_the_pending_ones():
    ctx = RunContext("bitexact-realworld", {"image_size": 64, "images": 100, "calibration_images": 32},
                     repo_root(), show_progress=False)
    res = merge(ctx, {"resnet18": _ran(700, 0), "deit_tiny": _ran(1300, 2),
                      "squeezenet1_1_fm64": {"status": "pending", "weights": "trained", "reason": "not trained yet"}})
    page = render({"results": res, "timing": {"resnet18.total": 12.5, "deit_tiny.total": 12.5,
                                              "resnet18.quantize": 3.0}})
    assert "| 2 | 2,000 | 2 | 24,690 | 6 | 0 | squeezenet1\\_1\\_fm64 | 25 |" in page
    assert "| resnet18 | random-initialised | ran | 100 | 7 | 700 | 0 | 0 | 0 | 0.97 | 8.25 |" in page
    assert "| squeezenet1\\_1\\_fm64 | trained | pending | — |" in page and page.endswith("\n")
