from npuready.site.docs import TocEntry, render_doc
from npuready.site.source import Doc


def test_markdown_tables_links_and_escaped_html():
    page = render_doc(Doc(name="rules/R001a", text="# R001a - No dynamic axes\n\n<!-- gen -->\n"
                                                   "See [R002](R002.md) and [support](../support.md#x).\n\n"
                                                   "<script>alert(1)</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"))
    html = str(page.html)
    assert page.title == "R001a - No dynamic axes" and page.anchor == "doc-rules-R001a" and page.group == "rules"
    assert 'href="#doc=rules/R002"' in html and 'href="#doc=support&amp;h=doc-support-x"' in html
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "gen" not in html
    assert "<td>1</td>" in html
    # the title is an h2 under the Docs view's h1
    assert '<h2 id="doc-rules-R001a-r001a-no-dynamic-axes">' in html


def test_wide_tables_scroll_in_a_keyboard_focusable_region():
    page = render_doc(Doc(name="ops", text="# Ops\n\n| a |\n|---|\n| 1 |\n\n| b |\n|---|\n| 2 |\n"))
    html = str(page.html)
    assert html.count('<div class="doc-table" tabindex="0" role="region" aria-label="Ops: table 1"><table>') == 1
    assert 'aria-label="Ops: table 2"' in html
    assert html.count("</table></div>") == 2


def test_contents_list_sections_and_subsections_with_deep_links():
    page = render_doc(Doc(name="guide", text="# Guide\n\nSee [below](#how-to-fix).\n\n## Why\n\ntext\n\n"
                                             "### How to fix\n\n#### Detail\n\n## Limits\n"))
    assert page.toc == (TocEntry(1, "doc-guide-why", "Why"), TocEntry(2, "doc-guide-how-to-fix", "How to fix"),
                        TocEntry(1, "doc-guide-limits", "Limits"))
    assert page.link("doc-guide-why") == "#doc=guide&h=doc-guide-why"
    html = str(page.html)
    assert 'href="#doc=guide&amp;h=doc-guide-how-to-fix"' in html
    assert '<h4 id="doc-guide-how-to-fix">How to fix</h4>' in html and '<h5 id="doc-guide-detail">' in html


def test_a_document_without_a_single_title_lists_every_top_heading():
    page = render_doc(Doc(name="notes", text="## A\n\n## B\n"))
    assert [e.text for e in page.toc] == ["A", "B"] and page.title == "notes"
