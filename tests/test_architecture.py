"""The package's import graph, read from the source with ``ast`` (nothing is imported): no import cycle between
modules, no package-level cycle, and no import from a lower layer to a higher one.

An import inside a function counts like one at the top of a file: a lazy import still ties the two modules.
One under ``if TYPE_CHECKING:`` does not (it never runs; it only names types for annotations).
``from a import b`` names the module ``a.b`` when ``b`` is one, else the module ``a`` (as import-linter's grimp
reads it), so a package's ``__init__`` is not an edge of every import of its submodules.
"""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "generator" / "npuready"

#: Layers from the bottom up, following design.md's flow (graph → lint → partition → cost; preprocess →
#: quant → engine → verify; experiments → site). A package may import its own layer and those below it.
#: Names are the first component under ``npuready`` (a subpackage or a top-level module); ``<root>`` is
#: ``npuready/__init__.py``, the public face (``npuready.lint()``), on top; ``version`` is at the bottom.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("version", "errors", "paths", "bytesize", "evidence", "terminal", "atomic", "staged", "ort_tools",
     "ort_session"),
    ("nesting",),
    ("inputs",),
    ("importer", "data", "thirdparty", "vendor"),
    ("graph",),
    ("targets", "runtime"),
    ("lint",),
    ("partition",),
    ("cost", "probes"),
    ("analysis",),
    ("preprocess",),
    ("models",),
    ("quant",),
    ("engine",),
    ("tflite",),
    ("verify",),
    ("sensitivity",),
    ("surgery",),
    ("site",),
    ("history",),
    ("intake", "report"),
    ("deploy",),
    ("experiments",),
    ("export",),
    ("docs_gen",),
    ("commands",),
    ("cli",),
    ("quickstart",),
    ("<root>",),
)

#: Imports that break the rules today, each (importer module, imported module) with why it is still here.
#: This list must shrink, never grow: an entry whose import is gone fails ``test_allowed_edges_still_exist``.
ALLOWED: dict[tuple[str, str], str] = {
    ("npuready.nesting", "npuready.inputs.budget"):
        "the nesting and byte limits live in inputs.budget, which inputs' readers import with nesting; "
        "budget belongs below both",
    ("npuready.lint.api", "npuready.partition.placement"):
        "lint places every node through the planner (R009 reports that placement) while partition.plan "
        "reads lint's findings: placement belongs below lint",
    ("npuready.lint.rules.r009_off_npu", "npuready.partition.inventory"):
        "R009 names each placed node's inventory class; goes with placement below lint",
    ("npuready.lint.rules.r009_off_npu", "npuready.lint.api"):
        "R009's standalone check() runs one lint run (the registry imports the rule: a module cycle)",
    ("npuready.quant.inputs", "npuready.deploy.calibration"):
        "the calibration-folder reader (deploy --calib, quantize --calib) belongs in preprocess/",
}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.AST):
    """Every import statement in ``tree`` except those under ``if TYPE_CHECKING:`` (never executed: annotations)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in _imports_and_self(child))
            continue
        yield from _imports_and_self(node)


def _imports_and_self(node: ast.AST):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    yield from _imports(node)


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module → the package modules it imports (anywhere in the file)."""
    files = {_module_name(p, root): p for p in root.rglob("*.py")}
    edges: dict[str, set[str]] = {m: set() for m in files}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    head = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(head + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            else:
                continue
            for target in targets:
                while target and target not in files:
                    target = target.rpartition(".")[0]
                if target and target != module:
                    edges[module].add(target)
    return edges


def layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "<root>"


def _rank() -> dict[str, int]:
    return {name: i for i, group in enumerate(LAYERS) for name in group}


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one member (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    edges = import_graph()
    return {m: {t for t in ts if (m, t) not in ALLOWED} for m, ts in edges.items()}


def test_every_package_has_a_layer(graph):
    missing = sorted({layer_of(m) for m in graph} - set(_rank()))
    assert missing == [], f"place {missing} in LAYERS"


def test_no_module_cycles(graph):
    assert _cycles(graph) == []


def test_no_package_cycles(graph):
    packages: dict[str, set[str]] = defaultdict(set)
    for module, targets in graph.items():
        packages[layer_of(module)] |= {layer_of(t) for t in targets} - {layer_of(module)}
    assert _cycles(dict(packages)) == []


def test_no_upward_imports(graph):
    rank = _rank()
    upward = sorted((m, t) for m, ts in graph.items() for t in ts
                    if rank.get(layer_of(t), 0) > rank.get(layer_of(m), 0))
    assert upward == []


def test_allowed_edges_still_exist():
    edges = import_graph()
    stale = sorted(edge for edge in ALLOWED if edge[1] not in edges.get(edge[0], ()))
    assert stale == [], "remove these from ALLOWED: the import is gone"


def test_graph_reads_relative_and_submodule_imports(tmp_path):
    pkg = tmp_path / "npuready"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from . import b\n")
    (pkg / "sub" / "a.py").write_text("def f():\n    from npuready.sub.b import thing\n")
    (pkg / "sub" / "b.py").write_text("from .. import errors\nif TYPE_CHECKING:\n    from npuready.sub import a\n"
                                      "thing = 1\n")
    (pkg / "errors.py").write_text("import os\n")
    assert import_graph(pkg) == {"npuready": set(), "npuready.errors": set(), "npuready.sub": {"npuready.sub.b"},
                                 "npuready.sub.a": {"npuready.sub.b"}, "npuready.sub.b": {"npuready.errors"}}


def test_allowed_list_only_shrinks():
    """Lower this bound when an entry goes; an edge that needs adding is a layering decision to make first."""
    assert len(ALLOWED) <= 5


def test_cycles_and_upward_imports_are_found():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
    rank = _rank()
    assert rank[layer_of("npuready.engine.export")] > rank[layer_of("npuready.graph.view")]
    assert layer_of("npuready") == "<root>" and layer_of("npuready.tflite.ops.registry") == "tflite"
