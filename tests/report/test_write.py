import json

from npuready.report import write_report
from npuready.site.modelpage import PAGE_ASSETS

RESULT = {"model": {"label": "m", "targets": []}, "graph": {"node_count": 0, "nodes": [], "edges": []}}


def _files(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def test_write_report_writes_the_json_and_one_self_contained_page_beside_it(tmp_path):
    path = write_report(RESULT, tmp_path)
    assert json.loads(path.read_text()) == RESULT
    assert _files(tmp_path) == ["report.html", "result.json"]


def test_write_report_without_inlining_writes_the_assets_too(tmp_path):
    write_report(RESULT, tmp_path, inline=False)
    assert _files(tmp_path) == sorted(["report.html", "result.json", *(f"assets/{n}" for n in PAGE_ASSETS)])
