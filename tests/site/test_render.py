import json

import pytest

from npuready.commands.site import build_all
from npuready.site import pointer
from npuready.site.fmt import format_number
from npuready.site.numbers import MissingSource
from npuready.site.views import KNOWN
from tests.site.pagescan import scan


def _docs(tree):
    return {p.parent.name: json.loads(p.read_text()) for p in tree["experiments"].glob("*/result.json")}


def test_every_number_button_shows_the_json_value_at_its_path(fixture_tree):
    build, _ = build_all(tree := fixture_tree["experiments"], fixture_tree["docs"])
    page = scan(build.page)
    docs = _docs(fixture_tree)
    assert len(page.nums) == build.figures > 0
    for b in page.nums:
        value = pointer.resolve(docs[b["data-exp"]], b["data-path"])
        expected = format_number(value, pct=b.get("data-scale") == "100")
        assert b["text"].split("\u2009")[0] == expected, (b, value)
    assert {b["data-exp"] for b in page.nums} == {"lint-corpus", "toy-models", "toy-cost", "xss-probe",
                                                  "cost-per-target"}
    assert tree.is_dir()


def test_every_raw_button_points_into_its_json(fixture_tree):
    build, _ = build_all(fixture_tree["experiments"], fixture_tree["docs"])
    docs = _docs(fixture_tree)
    for b in scan(build.page).raws:
        assert pointer.exists(docs[b["data-exp"]], b["data-path"]), b


def test_untrusted_strings_render_as_text_not_markup(fixture_tree):
    build, md = build_all(fixture_tree["experiments"], fixture_tree["docs"])
    html = build.page
    page = scan(html)
    assert "img" not in page.tags
    for s in page.scripts:  # only data blocks and our own files; nothing injected
        assert s.get("type") == "application/json" or s.get("src", "").startswith(("vendor/", "assets/")), s
    text = "".join(page.text)
    assert "<script>alert('title')</script>" in text
    assert "<img src=x onerror=alert('node')>" in text
    assert "<script>alert('doc')</script>" in text  # raw HTML in docs Markdown is shown, not run
    assert "a generator comment" not in text


def test_each_result_is_a_data_script_holding_the_stored_json(fixture_tree):
    build, _ = build_all(fixture_tree["experiments"], fixture_tree["docs"])
    docs = _docs(fixture_tree)
    assert sorted(build.records) == sorted(docs)
    for exp_id, doc in docs.items():
        text = build.files[f"data/{exp_id}.js"].decode()
        call = f"npuready.registerRecord({json.dumps(exp_id)},"
        assert text.startswith(call) and text.endswith(");\n")
        assert json.loads(text[len(call):-3]) == doc == build.records[exp_id]


def test_index_carries_the_first_view_only(fixture_tree):
    build, _ = build_all(fixture_tree["experiments"], fixture_tree["docs"])
    index = build.files["index.html"].decode()
    ids = set(scan(index).ids)
    assert {"view-findings", "view-models", "view-records", "view-docs", "raw", "site-manifest"} <= ids
    assert {"record-lint-corpus", "panel-toy-cost", "doc-NOTES"} & ids == set()  # other views' HTML is not inline
    assert "exp-data" not in index and "registerRecord" not in index
    assert sorted(n for n in build.files if n.startswith("views/")) == [
        f"views/{v}.js" for v in ("docs", "history", "integer", "models", "npu", "records", "reports")]
    manifest = json.loads(next(s["text"] for s in scan(index).scripts if s.get("id") == "site-manifest"))
    assert manifest["first"] == "findings"
    assert sorted(manifest["records"]) == sorted(build.records)
    assert manifest["views"]["npu"].startswith("views/npu.js?v=")
    assert manifest["charts"] == ["npu"]  # the chart runtime starts loading with the tab's HTML


def test_known_experiments_absent_show_not_run_yet(fixture_tree):
    build, _ = build_all(fixture_tree["experiments"], fixture_tree["docs"])
    html = build.page
    for exp_id, known in KNOWN.items():
        if exp_id in ("lint-corpus", "cost-per-target"):
            continue
        assert f'<span class="missing-exp" data-exp="{exp_id}"' in html
        if known.view != "records":  # records-only experiments have no panel in a view
            assert f"npuready run {exp_id}</code> writes" in html


def test_views_and_deep_link_targets_exist(fixture_tree):
    build, _ = build_all(fixture_tree["experiments"], fixture_tree["docs"])
    ids = set(scan(build.page).ids)
    assert {"view-findings", "view-models", "view-npu", "view-integer", "view-records", "view-docs", "raw"} <= ids
    assert {"record-lint-corpus", "record-xss-probe", "panel-toy-cost", "doc-NOTES"} <= ids
    assert "doc-EXPERIMENTS" not in ids  # its drillable form is the records view


def test_rendering_is_deterministic(fixture_tree):
    first, md1 = build_all(fixture_tree["experiments"], fixture_tree["docs"])
    second, md2 = build_all(fixture_tree["experiments"], fixture_tree["docs"])
    assert first.files == second.files and md1 == md2
    assert first.warnings == []


def test_hand_view_that_loses_its_figure_fails_the_build_unless_lenient(fixture_tree):
    path = fixture_tree["experiments"] / "lint-corpus" / "result.json"
    doc = json.loads(path.read_text())
    del doc["results"]["corpus"]["summary"]["blocked"]
    path.write_text(json.dumps(doc))
    with pytest.raises(MissingSource, match="lint-corpus: hand-designed view views/lint-corpus.j2"):
        build_all(fixture_tree["experiments"], fixture_tree["docs"])
    build, _ = build_all(fixture_tree["experiments"], fixture_tree["docs"], strict=False)
    assert len(build.warnings) == 1 and build.warnings[0].startswith("lint-corpus: hand-designed view")
    assert 'data-path="/results/corpus/summary/blocked"' not in build.page


def test_site_without_experiments_still_renders(tmp_path):
    (tmp_path / "experiments").mkdir()
    (tmp_path / "docs").mkdir()
    build, md = build_all(tmp_path / "experiments", tmp_path / "docs")
    assert build.figures == 0 and "No stored experiments yet" in md
    assert 'id="view-findings"' in build.page


def test_hand_view_picks_rows_by_stored_values(fixture_tree):
    build, _ = build_all(fixture_tree["experiments"], fixture_tree["docs"])
    html = build.page
    # fastest/slowest per model are chosen among stored rows (selection, no arithmetic)
    assert ('<b>toy-vit</b>: fastest on <code>edge-10</code>\n'
            '<button class="num" data-exp="cost-per-target" data-path="/results/costs/rows/3/cycles">700</button>'
            ) in html
    assert 'data-path="/results/costs/rows/2/cycles">9,000</button>&nbsp;cycles.' in html
    assert html.count('class="chart-spec" data-target="chart-cost-per-target-') == 1
