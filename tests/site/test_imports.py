"""The renderer reads only stored JSON and Markdown: it must not import the pipeline."""
import ast
from pathlib import Path

import npuready.site

ALLOWED = ("npuready.site", "npuready.atomic", "npuready.paths", "npuready.errors", "npuready.evidence",
           "npuready.nesting")  # nesting: depth- and size-bounded JSON reading (no pipeline)
SITE = Path(npuready.site.__file__).parent


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                names.append("npuready.site" + ("." + node.module if node.module else ""))
            else:
                names.append(node.module or "")
                names += [f"{node.module}.{a.name}" for a in node.names if node.module == "npuready"]
    return names


def test_site_modules_import_nothing_from_the_pipeline():
    files = sorted(SITE.rglob("*.py"))
    assert len(files) >= 10
    bad = {}
    for path in files:
        offending = [n for n in _imports(path) if (n == "npuready" or n.startswith("npuready."))
                     and not n.startswith(ALLOWED)]
        if offending:
            bad[str(path.relative_to(SITE))] = offending
    assert bad == {}


def test_the_import_scan_catches_a_pipeline_import(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("from npuready.experiments import run\nimport npuready.lint.api\nfrom npuready import graph\n")
    assert _imports(probe) == ["npuready.experiments", "npuready.lint.api", "npuready", "npuready.graph"]
