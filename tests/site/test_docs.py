from npuready.site.docs import render_doc
from npuready.site.source import Doc


def test_markdown_tables_links_and_escaped_html():
    page = render_doc(Doc(name="rules/R001a", text="# R001a - No dynamic axes\n\n<!-- gen -->\n"
                                                   "See [R002](R002.md) and [support](../support.md#x).\n\n"
                                                   "<script>alert(1)</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"))
    html = str(page.html)
    assert page.title == "R001a - No dynamic axes" and page.anchor == "doc-rules-R001a" and page.group == "rules"
    assert 'href="#doc=rules/R002"' in html and 'href="#doc=support"' in html
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "gen" not in html
    assert "<table>" in html and "<td>1</td>" in html
    assert 'id="doc-rules-R001a-r001a-no-dynamic-axes"' in html
