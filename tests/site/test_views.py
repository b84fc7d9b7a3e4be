"""Hand-designed views against fixtures shaped like their runners' results (tests/site/fixtures/known/)."""
import json
import shutil
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
    assert sorted(exps) == ["activation-swap", "bitexact-litert", "cost-per-target", "intake", "mixed-precision",
                            "parity-ladder",
                            "partitions", "pruning", "ptq-methods", "zoo-training"]
    assert build.warnings == []
    html = build.page
    for exp_id in exps:
        assert KNOWN[exp_id].prepare is not None
        assert f'id="panel-{exp_id}"' in html


def test_parity_ladder_shows_each_rung_and_the_output_mismatch_as_percent():
    _, build = _build()
    html = build.page
    base = "/results/toy-cnn/methods/percentile"
    assert (f'<button class="num" data-exp="parity-ladder" data-path="{base}/output_code_mismatch" '
            'data-scale="100">50.0%</button>') in html
    assert f'data-path="{base}/accuracy_integer">0.87</button>' in html
    assert "made-up line &lt;b&gt;one&lt;/b&gt;" in html
    # ladder per-tensor, PTQ recipes, activation-swap stages, pruning, cost-per-target cycles, mixed-precision gains
    assert html.count('class="chart-spec"') == 6


def test_ptq_headline_names_best_and_worst_recipe_from_stored_rows():
    _, build = _build()
    html = build.page
    assert ('best <code>adaround</code>\n<button class="num" data-exp="ptq-methods" '
            'data-path="/results/accuracy/rows/1/int8_accuracy">0.8975</button>') in html
    assert 'worst <code>minmax</code>' in html


def test_every_number_in_the_known_views_matches_its_json():
    exps, build = _build()
    from npuready.site import pointer
    from npuready.site.fmt import format_number

    nums = scan(build.page).nums
    assert len(nums) == build.figures
    for b in nums:
        value = pointer.resolve(json.loads(json.dumps(exps[b["data-exp"]].doc)), b["data-path"])
        assert b["text"].split("\u2009")[0] == format_number(value, pct=b.get("data-scale") == "100")


def test_activation_swap_reads_before_swap_recovery_and_null_rows():
    _, build = _build()
    html = build.page
    a = "/results/accuracy/rows/0"
    assert (f'top-1 <button class="num" data-exp="activation-swap" data-path="{a}/accuracy_before">0.875</button> → '
            f'<button class="num" data-exp="activation-swap" data-path="{a}/accuracy_after_swap">0.5</button>') in html
    assert 'data-path="/results/cost/rows/0/after/cycles">40,000</button>' in html
    assert "nothing to swap (top-1" in html
    # a stored null is text, never drawn as a number
    assert 'data-path="/results/accuracy/rows/1/accuracy_after_swap"' not in html


def _num(exp_id, path, shown, pct=False):
    scale = ' data-scale="100"' if pct else ""
    return f'<button class="num" data-exp="{exp_id}" data-path="{path}"{scale}>{shown}</button>'


def _card(html, exp_id):
    start = html.index(f'<article class="card finding" data-exp="{exp_id}">')
    return html[start:html.index("</article>", start)]


def _panel(html, exp_id):
    start = html.index(f'id="panel-{exp_id}"')
    return html[start:html.index("</article>", start)]


def test_pruning_headline_states_the_finding_in_a_few_sentences():
    _, build = _build()
    card = _card(build.page, "pruning")
    r = "/results/toy-cnn/rows"
    # the wording follows the stored comparisons: 6 of 8 pruned cases diverge ("most")
    assert "most pruned variants keep" in card
    # the most telling variant: the largest excess of cycles kept over MACs kept on a target it was planned for
    # (uniform on edge-10: 75% vs 25%), labelled simulated
    assert ('<i>uniform</i> on <code>edge-10</code> keeps '
            f'{_num("pruning", f"{r}/0/per_target/edge-10/cycles_fraction", "75.0%", pct=True)}'
            f' of the cycles\nfor {_num("pruning", f"{r}/0/per_target/edge-10/macs_fraction", "25.0%", pct=True)} '
            'of the MACs '
            '<span class="ev ev-simulated"') in card
    # cost-greedy below uniform on tiny-1 only (0.75 < 0.8125; 0.84375 is not), with that pair as the example
    assert "lower top-1 than uniform</span>\non some of the models and targets" in card
    assert (f'<b>toy-cnn</b> on <code>tiny-1</code>: {_num("pruning", f"{r}/2/accuracy_after_recovery", "0.75")} '
            '<span class="worse" title="below uniform">▼</span>\n'
            f'vs uniform {_num("pruning", f"{r}/0/accuracy_after_recovery", "0.8125")} '
            '<span class="ev ev-measured"') in card
    # no table, no exceptions list: those open the panel
    assert "<table" not in card and "<li" not in card
    assert "planned for <code>" not in card and "removed nothing" not in card
    assert len(scan(card).nums) == 4


def test_pruning_panel_opens_with_the_kept_shares_table():
    _, build = _build()
    panel = _panel(build.page, "pruning")
    r = "/results/toy-cnn/rows"
    table = panel[panel.index('<table class="mini kept">'):]
    assert panel.index('<table class="mini kept">') < panel.index('<p class="summary">') < panel.index('class="chart"')
    # per target: criterion, cycles kept, MACs kept (stored fractions as %), top-1 after recovery
    assert (f'<td>{_num("pruning", f"{r}/0/per_target/tiny-1/cycles_fraction", "50.0%", pct=True)}</td>'
            f'\n<td>{_num("pruning", f"{r}/0/per_target/tiny-1/macs_fraction", "25.0%", pct=True)}</td>\n'
            f'<td>{_num("pruning", f"{r}/0/accuracy_after_recovery", "0.8125")}</td>') in table
    table = table[:table.index("</table>")]
    assert table.count('<span class="worse" title="below uniform">') == 1
    assert (f'{_num("pruning", f"{r}/2/accuracy_after_recovery", "0.75")} '
            '<span class="worse" title="below uniform">') in table
    # off-target rows (array_aligned planned for tiny-1, on edge-10) stay out of the compact table
    assert f"{r}/1/per_target/edge-10/" not in table
    # the two exceptions and the variant that removed nothing are named under the table
    assert panel.count("toy-cnn <i>cost_greedy</i> planned for") == 2
    assert "toy-cnn <i>array_aligned</i> planned for <code>edge-10</code> removed nothing." in panel


def test_pruning_body_has_unpruned_rows_and_a_chart_of_stored_fractions():
    exps, build = _build()
    html = build.page
    panel = html[html.index('id="panel-pruning"'):]
    panel = panel[:panel.index("</article>")]
    assert _num("pruning", "/results/toy-cnn_baseline_cost/edge-10/cycles", "800") in panel
    assert panel.count("<i>unpruned</i>") == 2
    spec = json.loads(scan(panel).scripts[0]["text"])
    points = [p for data in spec["datasets"].values() for p in data if "criterion" in p]
    rows = exps["pruning"].doc["results"]["toy-cnn"]["rows"]
    assert len(points) == 2 * len(rows)
    stored = {(r["criterion"], r["planned_for"] or "any target", f"toy-cnn @ {t}"):
              (k["macs_fraction"], k["cycles_fraction"]) for r in rows for t, k in r["per_target"].items()}
    assert {(p["criterion"], p["planned for"], p["model @ target"]): (p["x"], p["y"]) for p in points} == stored


def test_intake_headline_gives_the_counts_and_one_picked_result():
    _, build = _build()
    card = _card(build.page, "intake")
    s, c, a = "/results/summary", "/results/applied_cost/rows", "/results/applied_accuracy/rows"
    assert f'Intake reports {_num("intake", f"{s}/reports", "2")} <span class="ev ev-simulated"' in card
    for key in ("blocked_by_lint", "fragmented", "actions", "zoo_models_applied"):
        assert f'data-path="{s}/{key}"' in card
    # applied: first → last stage, cost simulated, integer accuracy measured
    assert f'cycles {_num("intake", f"{c}/0/cycles", "9,000")} → {_num("intake", f"{c}/2/cycles", "6,000")}' in card
    assert (f'integer top-1 {_num("intake", f"{a}/0/integer_accuracy", "0.8625")} → '
            f'{_num("intake", f"{a}/2/integer_accuracy", "0.8")} <span class="ev ev-measured"') in card
    # the only what-if belongs to the applied model, so it joins that sentence; its id opens the prescription record
    assert ('what-if of <button class="raw" data-exp="intake" data-path="/results/prescriptions/rows/1">'
            'swap-activation</button> <span class="ev ev-simulated"') in card
    prose = ('<span class="prose-num"><button class="raw" data-exp="intake" '
             'data-path="/results/prescriptions/rows/1/expected">{}</button></span>')
    assert f"NPU segments {prose.format(5)} → {prose.format(2)} (made up)" in card
    # the per-model entries are in the panel, not on the card
    assert "<li" not in card and "Prescribed:" not in card
    assert "example:&lt;toy&gt;" not in card
    assert "What-if of <code>calibrate</code>" not in card  # a reference rule is not a what-if


def test_intake_panel_opens_with_found_prescribed_and_effect_per_model():
    _, build = _build()
    panel = _panel(build.page, "intake")
    entries = panel[:panel.index('<p class="summary">')]
    assert '<ul class="tight entries">' in entries
    d, c, a = "/results/diagnoses/rows", "/results/applied_cost/rows", "/results/applied_accuracy/rows"
    assert f'NPU segments {_num("intake", f"{d}/0/npu_segments", "5")}' in entries
    # prescriptions in their stored order field, the one advised against marked
    assert ("Prescribed: <code>swap-activation</code>, <code>prune-aligned</code> "
            '<span class="dim">(advised against)</span>.') in entries
    # what-if: the first simulated prescription, labelled with its own basis
    assert 'What-if of <code>swap-activation</code> <span class="ev ev-simulated"' in entries
    prose = ('<span class="prose-num"><button class="raw" data-exp="intake" '
             'data-path="/results/prescriptions/rows/1/expected">{}</button></span>')
    assert f"NPU segments {prose.format(5)} → {prose.format(2)} (made up)" in entries
    # applied: first → last stage, cost simulated, accuracy measured
    assert f'cycles {_num("intake", f"{c}/0/cycles", "9,000")} → {_num("intake", f"{c}/2/cycles", "6,000")}' in entries
    assert (f'integer {_num("intake", f"{a}/0/integer_accuracy", "0.8625")} → '
            f'{_num("intake", f"{a}/2/integer_accuracy", "0.8")}') in entries
    # the user's own ONNX: a stored null cost is left out, not shown as a number; names are escaped
    assert "<b>example:&lt;toy&gt;</b>" in entries
    assert f"{d}/1/cycles" not in entries
    assert "What-if of <code>calibrate</code>" not in entries  # a reference rule is not a what-if


def test_intake_body_pairs_each_stage_accuracy_with_its_cost():
    _, build = _build()
    html = build.page
    panel = html[html.index('id="panel-intake"'):]
    panel = panel[:panel.index("</article>")]
    flt = _num("intake", "/results/applied_accuracy/rows/1/float_accuracy", "0.75")
    assert f'<td><span class="nowrap">after-swap</span></td><td>{flt}' in panel
    assert 'data-path="/results/applied_accuracy/rows/1/integer_accuracy"' not in panel
    assert '<span class="null" title="stored as null">null</span>' in panel
    assert _num("intake", "/results/applied_cost/rows/1/cycles", "6,000") in panel
    assert "made-up &lt;calibration&gt; advice" in panel


def test_intake_headline_names_the_most_fragmented_what_if_not_applied(tmp_path):
    """With a report that was not applied, the card's what-if is the most fragmented of those (stored comparison)."""
    shutil.copytree(KNOWN_FIXTURES / "intake", tmp_path / "intake")
    path = tmp_path / "intake" / "result.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    res = doc["results"]
    for name, segments in (("own:small", 3), ("own:big", 7)):
        res["diagnoses"]["rows"].append({**res["diagnoses"]["rows"][1], "model": name, "npu_segments": segments,
                                         "verdict": "fragmented", "cycles": 100 * segments})
        res["prescriptions"]["rows"].append({"automatic": True, "basis": "simulated",
                                             "expected": f"made-up {name} effect", "id": "replace-norm", "model": name,
                                             "order": 1, "recommended": True,
                                             "target": "edge-10", "title": "made-up replace-norm"})
    path.write_text(json.dumps(doc), encoding="utf-8")
    exps = load_experiments(tmp_path)
    card = _card(render_site(exps, {}, strict=True).page, "intake")
    d = "/results/diagnoses/rows"
    assert (f'Most fragmented without an applied run: <b>own:big</b> on <code>edge-10</code>\n'
            f'(NPU segments {_num("intake", f"{d}/3/npu_segments", "7")}) — what-if of ') in card
    assert "made-up own:big effect" in card and "own:small" not in card
    # the applied model keeps its own sentence, without its what-if
    assert "Applied to <b>toy-vit</b>" in card and "NPU segments 5 → 2 (made up)" not in card


def test_partitions_headline_states_the_finding_in_a_few_sentences():
    _, build = _build()
    card = _card(build.page, "partitions")
    x, r = "/results/examples/rows", "/results/real_model/rows"
    # on the first example target, each model's first plan by verdict; of the two fragmented, the most NPU segments
    # (toy-vit, 3) wins over the most bytes (toy-mlp, 20,000), labelled with the stored evidence
    assert ("On <code>edge-10</code>, <b>toy-cnn</b> places as one NPU body; <b>toy-host</b> stays off the NPU; "
            "<b>toy-mlp</b> and <b>toy-vit</b> are fragmented, most of all <b>toy-vit</b>:\n"
            f'{_num("partitions", f"{x}/3/npu_segments", "3")} NPU segments, '
            f'{_num("partitions", f"{x}/3/transfer_bytes_per_inference", "9,000")} bytes CPU↔NPU per inference '
            '<span class="ev ev-measured"') in card
    # the real model's most fragmented plan (tiny-1: 9 segments), then the recomposition check
    assert ('The real model <b>toy-real</b> on <code>tiny-1</code>:\n'
            f'fragmented, {_num("partitions", f"{r}/1/npu_segments", "9")} NPU segment(s),\n'
            f'{_num("partitions", f"{r}/1/transfer_bytes_per_inference", "900,000")} bytes CPU↔NPU per '
            'inference <span class="ev ev-measured"') in card
    assert (f'within {_num("partitions", "/results/recomposition/limit", "1.000e-05")}:\nall parts '
            '<button class="raw" data-exp="partitions" data-path="/results/recomposition/all_within_limit">') in card
    assert "not an NPU compiler&#39;s partition." in card
    # no per-model list: the plans open the panel; toy-cnn's fragmented plan on tiny-1 (not the first target) is not
    # named
    assert "<ul" not in card and "<li" not in card
    assert f"{x}/0/" not in card and f"{x}/5/" not in card and f"{r}/0/" not in card
    assert len(scan(card).nums) == 5


def test_partitions_panel_opens_with_the_plan_of_each_model():
    _, build = _build()
    panel = _panel(build.page, "partitions")
    x, r = "/results/examples/rows", "/results/real_model/rows"
    assert panel.index('<ul class="tight plans">') < panel.index('<p class="summary">') < panel.index("<table")
    plans = panel[panel.index('<ul class="tight plans">'):panel.index("</ul>")]
    # each example model's first row, then every real-model row, as on the card before
    assert plans.count("<li>") == 6
    assert ('<li><b>toy-cnn</b> on <code>edge-10</code>:\n'
            f'one-body, {_num("partitions", f"{x}/0/npu_segments", "1")} NPU segment(s),\n'
            f'{_num("partitions", f"{x}/0/transfer_bytes_per_inference", "4,096")} bytes CPU↔NPU per inference</li>'
            ) in plans
    assert f"{x}/4/npu_segments" in plans and f"{r}/0/npu_segments" in plans and f"{r}/1/npu_segments" in plans
    assert f"{x}/1/" not in plans and f"{x}/5/" not in plans


def test_cost_per_target_headline_names_the_usual_targets_and_the_widest_spread():
    _, build = _build()
    card = _card(build.page, "cost-per-target")
    c = "/results/costs/rows"
    assert 'Simulated cycles per inference <span class="ev ev-simulated"' in card
    assert "fastest on <code>edge-10</code> for\nevery model;" in card
    # the one model whose slowest target differs is named with its stored cycles
    assert (f"slowest on <code>tiny-1</code> for\nevery model except <b>toy-det</b>\n"
            f'(<code>pcie-8</code>, {_num("cost-per-target", f"{c}/8/cycles", "12,000")}&nbsp;cycles).') in card
    # widest spread by stored cycles: toy-vit (700 → 9,000), not toy-det with the most cycles
    assert (f'Widest spread: <b>toy-vit</b>, {_num("cost-per-target", f"{c}/4/cycles", "700")}&nbsp;cycles on\n'
            f'<code>edge-10</code> vs {_num("cost-per-target", f"{c}/3/cycles", "9,000")} on <code>tiny-1</code>.'
            ) in card
    # the per-model list opens the panel
    assert "<ul" not in card and "<li" not in card and "<b>toy-cnn</b>" not in card
    assert len(scan(card).nums) == 3


def test_cost_per_target_panel_opens_with_fastest_and_slowest_per_model():
    _, build = _build()
    panel = _panel(build.page, "cost-per-target")
    c = "/results/costs/rows"
    assert (panel.index('<ul class="tight per-model">') < panel.index('<p class="summary">')
            < panel.index('class="chart"'))
    listing = panel[panel.index('<ul class="tight per-model">'):panel.index("</ul>")]
    assert listing.count("<li>") == 3
    assert ('<li><b>toy-cnn</b>: fastest on <code>edge-10</code>\n'
            f'{_num("cost-per-target", f"{c}/1/cycles", "5,000")}&nbsp;cycles, '
            'slowest on <code>tiny-1</code>\n'
            f'{_num("cost-per-target", f"{c}/0/cycles", "8,000")}&nbsp;cycles.</li>') in listing
    assert f'slowest on <code>pcie-8</code>\n{_num("cost-per-target", f"{c}/8/cycles", "12,000")}' in listing


def test_cost_per_target_headline_names_no_model_when_many_differ(tmp_path):
    """With more than two models off the usual slowest target, the card gives a word for how many, not names."""
    shutil.copytree(KNOWN_FIXTURES / "cost-per-target", tmp_path / "cost-per-target")
    path = tmp_path / "cost-per-target" / "result.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    rows = doc["results"]["costs"]["rows"]
    for name in ("toy-a", "toy-b"):
        rows += [{**rows[6], "model": name}, {**rows[7], "model": name}, {**rows[8], "model": name}]
    path.write_text(json.dumps(doc), encoding="utf-8")
    card = _card(render_site(load_experiments(tmp_path), {}, strict=True).page, "cost-per-target")
    # slowest on pcie-8 for three of five models: pcie-8 is now the usual one, and tiny-1 is left to two named models
    assert "slowest on <code>pcie-8</code> for\nevery model except <b>toy-cnn</b>" in card
    assert "<b>toy-vit</b>\n(<code>tiny-1</code>" in card
    rows += [{**rows[0], "model": "toy-c"}, {**rows[1], "model": "toy-c"}, {**rows[2], "model": "toy-c"},
             {**rows[0], "model": "toy-d"}, {**rows[1], "model": "toy-d"}, {**rows[2], "model": "toy-d"}]
    path.write_text(json.dumps(doc), encoding="utf-8")
    card = _card(render_site(load_experiments(tmp_path), {}, strict=True).page, "cost-per-target")
    # now four of seven models are slowest on tiny-1 and three are not: "most models", none named
    assert "slowest on <code>tiny-1</code> for\nmost models." in card
    assert "except" not in card


def test_scalesim_chart_draws_every_stored_layer_against_the_goal_band_not_one_bar_per_pair(tmp_path):
    """The SCALE-Sim chart was 36 bars of total ratios all at 1.000: it is one tick per stored layer (every layer of
    every model × target pair) on an axis spanning the stored per-layer goal around 1, and its title states the
    stored largest per-layer error. Drawn from the committed cost-vs-scalesim result."""
    from npuready.site.numbers import Figures
    from npuready.site.views.cost import prepare_vs_totals

    shutil.copytree(Path(__file__).parents[2] / "experiments" / "cost-vs-scalesim", tmp_path / "cost-vs-scalesim")
    exps = load_experiments(tmp_path)
    exp = exps["cost-vs-scalesim"]
    res = exp.doc["results"]
    view = prepare_vs_totals(Figures(exps), exp)["chart"]
    spec = json.loads(view.spec_json)
    rule, ticks = spec["layer"]
    assert rule["mark"]["type"] == "rule" and ticks["mark"]["type"] == "tick"
    assert ticks["encoding"]["x"]["field"] == "ratio"
    rows = spec["datasets"][ticks["data"]["name"]]
    layers = [x["ratio"] for m in res["comparison"]["models"] for x in m["layers"]]
    assert len(rows) == len(layers) == res["summary"]["layers"] > res["summary"]["pairs"]
    assert [r["ratio"] for r in rows] == layers
    assert len({r["row"] for r in rows}) == res["summary"]["pairs"]
    goal, worst = res["summary"]["layer_goal"], res["summary"]["max_abs_layer_error"]
    low, high = ticks["encoding"]["x"]["scale"]["domain"]
    assert low <= 1 - goal and high >= 1 + goal and high - low < 0.1  # zoomed on the band, not 0..1
    assert max(abs(r - 1) for r in layers) == worst
    assert view.title.endswith(f"(1 = identical; largest per-layer error {worst:g}, goal {goal:g})")
