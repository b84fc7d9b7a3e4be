"""No number describing a result is typed into a template: figures come only through fig.num()."""
import re
from pathlib import Path

import npuready.site

TEMPLATES = Path(npuready.site.__file__).parent / "templates"
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_NUMBER = re.compile(r"(?<![\w.-])\d+(?:[.,]\d+)*%?(?![\w-])")


def typed_numbers(template_text: str) -> list[str]:
    """Numbers in the text a template shows (outside Jinja expressions, tags and attributes)."""
    text = _TAG.sub(" ", _JINJA.sub(" ", template_text))
    return _NUMBER.findall(text)


def test_templates_type_no_numbers():
    files = sorted(TEMPLATES.rglob("*.j2"))
    assert len(files) >= 5
    found = {str(p.relative_to(TEMPLATES)): typed_numbers(p.read_text(encoding="utf-8")) for p in files}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_scan_sees_a_typed_number():
    assert typed_numbers("<p>max error {{ fig.num(E.id, '/x') }} is 0.08% over 12 layers, top-1 ok</p>") == [
        "0.08%", "12"]
