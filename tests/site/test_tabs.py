from npuready.site import render
from npuready.site.render import render_site
from npuready.site.source import load_experiments
from npuready.site.tabs import FIRST, TABS, Tab


def test_tabs_are_in_order_and_the_first_is_the_findings():
    assert list(TABS) == ["findings", "models", "npu", "integer", "reports", "records", "history", "docs"]
    assert FIRST == "findings"
    assert all(t.template.startswith("sections/") for t in TABS.values())


def test_a_registered_tab_gets_a_nav_link_a_section_and_its_own_file(fixture_tree, monkeypatch):
    extra = Tab("extra", "Extra", "sections/reports.j2",
                extra=lambda experiments: {"view_blurbs": {"reports": f"{len(experiments)} stored, from extra()"}})
    monkeypatch.setattr(render, "TABS", {**TABS, "extra": extra})
    experiments = load_experiments(fixture_tree["experiments"])
    build = render_site(experiments, {})
    index = build.files["index.html"].decode()
    assert '<a href="#extra" data-view="extra">Extra</a>' in index
    assert '<section class="view" id="view-extra" data-view="extra" hidden>\n\n</section>' in index
    assert build.files["views/extra.js"].decode().startswith('npuready.registerView("extra",{"html":"')
    assert f"{len(experiments)} stored, from extra()" in build.files["views/extra.js"].decode()
    assert "from extra()" not in build.files["views/reports.js"].decode()
