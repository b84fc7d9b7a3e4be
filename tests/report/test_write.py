import json

from npuready.report import write_report


def test_write_report_writes_the_json_and_the_standalone_page_beside_it(tmp_path):
    result = {"model": {"label": "m", "targets": []}, "graph": {"node_count": 0, "nodes": [], "edges": []}}
    path = write_report(result, tmp_path)
    assert json.loads(path.read_text()) == result
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == [
        "assets/drilldown.js", "assets/modelview.js", "assets/site.css", "assets/site.js", "report.html", "result.json"]
