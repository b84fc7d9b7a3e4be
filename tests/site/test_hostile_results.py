"""A hostile string in every free-text field of every committed result: the generated Markdown and the
site stay inert (no link, image, script or event handler reaches the output)."""
from __future__ import annotations

import json
import re
import shutil

import pytest

pytest.importorskip("jinja2")

from npuready.commands.site import build_all  # noqa: E402
from npuready.paths import docs_dir, experiments_dir  # noqa: E402

HOSTILE = ("<script>alert(1)</script><img src=x onerror=alert(2)>[a](javascript:alert(3))"
           "![i](https://evil.example/x.png)[d](data:text/html,hi)\x1b[31m")
# keys whose strings are identifiers or enumerations the schema constrains; everything else is free text
STRUCTURAL = {"id", "view", "evidence", "schema_version", "spec_sha256", "sha256", "kind", "commit", "dirty",
              "targets", "target", "stages", "edges"}  # target names are registry identifiers


def _poison(value, key=""):
    if isinstance(value, str):
        return value if key in STRUCTURAL else value + HOSTILE
    if isinstance(value, dict):
        return {k: _poison(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_poison(v, key) for v in value]
    return value


@pytest.fixture(scope="module")
def poisoned(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile") / "experiments"
    for result in sorted(experiments_dir().glob("*/result.json")):
        folder = root / result.parent.name
        folder.mkdir(parents=True)
        shutil.copy(result.parent / "spec.toml", folder / "spec.toml")
        doc = json.loads(result.read_text(encoding="utf-8"))
        (folder / "result.json").write_text(json.dumps(_poison(doc)), encoding="utf-8")
    build, experiments_md = build_all(root, docs_dir(), strict=False)
    return build, experiments_md


def test_experiments_md_is_inert(poisoned):
    import markdown

    _, md = poisoned
    html = markdown.markdown(md, extensions=["tables"])
    assert "&lt;script&gt;alert(1)" in md  # the hostile text is there, as text
    assert "<script" not in html and "<img" not in html and "javascript:" not in re.sub(r"\s", "", "".join(
        re.findall(r'href="[^"]*"', html))) and "\x1b" not in md


def test_site_html_is_inert(poisoned):
    build, _ = poisoned
    pages = {name: (text if isinstance(text, str) else text.decode()) for name, text in build.files.items()
             if name.endswith(".html")}
    assert "index.html" in pages and any(name.startswith("models/") for name in pages)
    assert "&lt;script&gt;alert(1)" in build.page  # the hostile text is there, as text
    pages.update({name: text.decode() for name, text in build.files.items() if name.startswith("views/")})
    for name, page in pages.items():
        assert "<script>alert(1)" not in page, name
        assert not re.search(r"<img[^>]*onerror", page), name
        assert not re.search(r'(href|src)\s*=\s*["\']?\s*(javascript|data|vbscript):', page, flags=re.I), name
        assert "https://evil.example" not in "".join(re.findall(r'(?:href|src)="[^"]*"', page)), name
