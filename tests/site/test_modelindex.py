"""The Models index and the excerpts index.html embeds for heavy model-report results."""
from __future__ import annotations

import json
import re
from html import unescape

from npuready.paths import experiments_dir
from npuready.site import pointer
from npuready.site.modelindex import EXCERPT_NOTE, excerpt, light_ids, model_rows, page_path
from npuready.site.numbers import Figures
from npuready.site.render import render_site
from npuready.site.source import load_experiments

DOC = {"id": "x", "spec": {"kind": "model-report"}, "results": {
    "graph": {"node_count": 3, "nodes": [{"id": 0}, {"id": 1}, {"id": 2}]},
    "rows": [{"a": 1, "b": 2}, {"a": 3, "b": 4}], "checks": {"all_ok": True, "n": {"ok": True}}}}


def test_excerpt_keeps_only_the_pointed_values_and_says_where_the_rest_is():
    out = excerpt(DOC, ["/results/graph/node_count", "/results/rows/1/b", "/results/checks", "/id"], "see page")
    assert out == {"id": "x", "spec": {"kind": "model-report"}, EXCERPT_NOTE: "see page", "results": {
        "graph": {"node_count": 3}, "rows": [None, {"b": 4}], "checks": {"all_ok": True, "n": {"ok": True}}}}


def _repo():
    return load_experiments(experiments_dir())


def test_one_row_per_model_report_and_per_corpus_model_not_already_reported():
    experiments = _repo()
    targets, rows = model_rows(Figures(experiments), experiments)
    reports = sorted(i for i, e in experiments.items() if e.doc["spec"].get("kind") == "model-report")
    corpus = experiments["realworld-corpus"].results
    shas = {experiments[i].results["model"]["sha256"] for i in reports}
    models = {r["model"] for r in corpus["summary"]["rows"]}
    reported = {m for m in models if corpus["reports"]["models"][m]["model"]["sha256"] in shas}
    assert reported == {"yolov8n"}  # model-report-yolov8n is the same ONNX graph as the corpus's yolov8n
    assert [r.exp_id for r in rows] == reports + ["realworld-corpus"] * (len(models) - 1)
    assert [r.page for r in rows[:len(reports)]] == [page_path(i) for i in reports]
    assert rows[reports.index("model-report-yolov8n")].also == ("realworld-corpus",)
    assert all(r.page is None and r.hint.startswith("npuready report library:") for r in rows[len(reports):])
    assert all(r.edges for r in rows)
    assert targets == ["edge-10", "ethos-u55-128"]
    assert light_ids(experiments) == set(reports) | {"realworld-corpus"}


def test_models_view_says_how_to_get_a_page_and_which_edge_policy_each_row_used():
    experiments = _repo()
    html = render_site(experiments, {}).page
    section = unescape(html[html.index('id="view-reports"'):html.index('id="view-records"')])
    assert "summary only" not in section
    assert "npuready report library:resnet18 --out DIR" in section and "<th rowspan=\"2\">Edges</th>" in section


def test_index_embeds_excerpts_that_resolve_every_models_number_and_pages_embed_the_whole_report():
    experiments = _repo()
    build = render_site(experiments, {})
    files, html, embedded = build.files, build.page, build.records
    section = html[html.index('id="view-reports"'):html.index('id="view-records"')]
    buttons = re.findall(r'<button class="(?:num|raw)" data-exp="([^"]+)" data-path="([^"]*)"', section)
    assert len(buttons) > 16 * 2 * 4
    for exp, path in buttons:  # each drill-down in the Models view finds its record in the excerpt, same value
        assert pointer.resolve(embedded[exp], unescape(path)) == pointer.resolve(experiments[exp].doc, unescape(path))
    yolo = embedded["model-report-yolov8n"]
    assert EXCERPT_NOTE in yolo and "nodes" not in yolo["results"].get("graph", {})
    page = files[page_path("model-report-yolov8n")].decode()
    payload = re.search(r'class="exp-data" data-exp="model-report-yolov8n">(.*?)</script>', page, re.S).group(1)
    assert json.loads(payload) == experiments["model-report-yolov8n"].doc
    assert 'id="dagre-src"' in page and "http://" not in page.replace("http://www.w3.org/", "")
