"""Hand-designed views against fixtures shaped like their runners' results (tests/site/fixtures/known/)."""
import json
from pathlib import Path

from npuready.site.render import render_site
from npuready.site.source import load_experiments
from npuready.site.views import KNOWN
from tests.site.pagescan import scan

KNOWN_FIXTURES = Path(__file__).parent / "fixtures" / "known"


def _build():
    exps = load_experiments(KNOWN_FIXTURES)
    return exps, render_site(exps, {}, strict=True)


def test_every_known_fixture_is_drawn_by_its_hand_view():
    exps, build = _build()
    assert sorted(exps) == ["activation-swap", "bitexact-litert", "parity-ladder", "ptq-methods", "zoo-training"]
    assert build.warnings == []
    html = build.files["index.html"].decode()
    for exp_id in exps:
        assert KNOWN[exp_id].prepare is not None
        assert f'id="panel-{exp_id}"' in html


def test_parity_ladder_shows_each_rung_and_the_output_mismatch_as_percent():
    _, build = _build()
    html = build.files["index.html"].decode()
    base = "/results/toy-cnn/methods/percentile"
    assert f'<button class="num" data-exp="parity-ladder" data-path="{base}/output_code_mismatch" data-scale="100">50.0%</button>' in html
    assert f'data-path="{base}/accuracy_integer">0.87</button>' in html
    assert "made-up line &lt;b&gt;one&lt;/b&gt;" in html
    assert html.count('class="chart-spec"') == 3  # ladder per-tensor, PTQ recipes, activation-swap stages


def test_ptq_headline_names_best_and_worst_recipe_from_stored_rows():
    _, build = _build()
    html = build.files["index.html"].decode()
    assert ('best <code>adaround</code>\n<button class="num" data-exp="ptq-methods" '
            'data-path="/results/accuracy/rows/1/int8_accuracy">0.8975</button>') in html
    assert 'worst <code>minmax</code>' in html


def test_every_number_in_the_known_views_matches_its_json():
    exps, build = _build()
    from npuready.site import pointer
    from npuready.site.fmt import format_number

    nums = scan(build.files["index.html"].decode()).nums
    assert len(nums) == build.figures
    for b in nums:
        value = pointer.resolve(json.loads(json.dumps(exps[b["data-exp"]].doc)), b["data-path"])
        assert b["text"].split("\u2009")[0] == format_number(value, pct=b.get("data-scale") == "100")


def test_activation_swap_reads_before_swap_recovery_and_null_rows():
    _, build = _build()
    html = build.files["index.html"].decode()
    a = "/results/accuracy/rows/0"
    assert (f'top-1 <button class="num" data-exp="activation-swap" data-path="{a}/accuracy_before">0.875</button> → '
            f'<button class="num" data-exp="activation-swap" data-path="{a}/accuracy_after_swap">0.5</button>') in html
    assert 'data-path="/results/cost/rows/0/after/cycles">40,000</button>' in html
    assert "nothing to swap (top-1" in html
    # a stored null is shown as its raw JSON, never as a number
    assert '<button class="raw" data-exp="activation-swap" data-path="/results/accuracy/rows/1/accuracy_after_swap">' in html
