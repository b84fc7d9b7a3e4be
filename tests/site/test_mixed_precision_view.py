"""The mixed-precision hand view (site/views/mixed_precision.py) against its fixture: the ranked layers with the
chosen set marked, the gain-vs-cycles chart, and the parity ladder of each build naming the layers kept float."""
from __future__ import annotations

import json
from pathlib import Path

from npuready.site.render import render_site
from npuready.site.source import load_experiments
from tests.site.pagescan import scan

KNOWN_FIXTURES = Path(__file__).parent / "fixtures" / "known"
E = "mixed-precision"
B = "/results/toy-cnn"


def _page() -> str:
    exps = load_experiments(KNOWN_FIXTURES)
    build = render_site({E: exps[E]}, {}, strict=True)
    assert build.warnings == []
    return build.page


def _panel():
    html = _page()
    start = html.index(f'id="panel-{E}"')
    return load_experiments(KNOWN_FIXTURES)[E].doc, html[start:html.index("</section>", start)]


def _num(path, shown):
    return f'<button class="num" data-exp="{E}" data-path="{path}">{shown}</button>'


def test_layers_are_in_the_stored_ranking_with_the_chosen_set_marked():
    _, html = _panel()
    rows = html[html.index("every layer, ranked"):]
    first, second, third = (rows.index(n) for n in ("<td>c2</td>", "<td>&lt;b&gt;fc&lt;/b&gt;</td>", "<td>c1</td>"))
    assert first < second < third  # the stored order, the hostile name escaped
    chosen = rows[:first].rsplit("<tr>", 1)[1]
    assert "kept float" in chosen  # c2 is the one --keep-float auto kept
    assert "kept float" not in rows[first:second].split("<tr>", 1)[1]
    assert _num(f"{B}/sensitivity/rows/0/gain_float", "0.15") in rows
    assert _num(f"{B}/sensitivity/rows/0/costs/1/extra_cycles", "700") in rows  # the second target's column


def test_the_ladder_of_each_build_names_the_layers_that_stayed_float():
    _, html = _panel()
    ladder = html[html.index("parity ladder of each build"):html.index("every layer, ranked")]
    assert _num(f"{B}/builds/auto/top1_agreement_integer_vs_float", "0.875") in ladder
    assert _num(f"{B}/builds/first_last/kept_count", "2") in ladder
    assert "<code>c1</code>, <code>&lt;b&gt;fc&lt;/b&gt;</code>" in ladder
    assert f'data-path="{B}/builds/auto/kept_float_nodes">2 nodes</button>' in ladder
    assert ladder.count("<span class='dim'>none</span>") == 2  # all INT8: no layer, no node ran float


def test_the_chart_plots_each_layers_gain_against_its_cycles_on_the_search_target():
    doc, html = _panel()
    spec = json.loads(html.split('class="chart-spec"', 1)[1].split(">", 1)[1].split("</script>", 1)[0])
    data = next(iter(spec["datasets"].values()))
    rows = doc["results"]["toy-cnn"]["sensitivity"]["rows"]
    assert [(d["layer"], d["x"], d["y"], d["choice"]) for d in data] == [
        (r["name"], r["costs"][0]["extra_cycles"], r["gain_float"],
         "kept float by auto" if r["name"] == "c2" else "left INT8") for r in rows]


def test_the_headline_says_which_bound_stopped_the_search():
    html = _page()
    card = html[html.index(f'<article class="card finding" data-exp="{E}">'):]
    card = card[:card.index("</article>")]
    assert any(b["data-path"] == f"{B}/keep_float/metric" for b in scan(card).nums)
    assert "The search stopped: <b>reached</b>" in card and "the test images\nmiss the goal" in card
    assert f'data-path="{B}/search">why</button>' in card
