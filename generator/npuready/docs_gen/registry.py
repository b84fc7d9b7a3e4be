"""Every generated docs page (and generated data file), by the function that renders it.

``npuready docs`` writes them; ``npuready docs --check`` (and a test) fails when a committed file
differs from what its generator produces now. ``docs/EXPERIMENTS.md`` is rendered with the site
(``npuready site``), which owns its own freshness check.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from npuready.paths import repo_root


def _rules() -> dict[str, str]:
    from npuready.docs_gen.rules import render_all

    return {f"docs/rules/{name}": text for name, text in render_all().items()}


def _support() -> dict[str, str]:
    from npuready.probes.support_doc import from_result, render

    return {"docs/support.md": render(from_result(repo_root()))}


def _targets() -> dict[str, str]:
    from npuready.docs_gen.targets import render_targets_md

    return {"docs/targets.md": render_targets_md()}


def _nnapi_mirror() -> dict[str, str]:
    from npuready.partition.nnapi_mirror import mirror_toml

    return {"generator/npuready/targets/data/nnapi-mirror.toml": mirror_toml()}


def _partition_vs_nnapi() -> dict[str, str]:
    from npuready.partition.docs import build

    return {"docs/partition-vs-nnapi.md": build()}


def _cost_vs_vela() -> dict[str, str]:
    from npuready.docs_gen.cost_vs_vela import build

    return {"docs/cost-vs-vela.md": build()}


def _preprocess() -> dict[str, str]:
    from npuready.preprocess.docs_page import render_markdown

    return {"docs/preprocess.md": render_markdown(repo_root())}


def _configuration() -> dict[str, str]:
    from npuready.docs_gen.configuration import render_configuration_md

    return {"docs/configuration.md": render_configuration_md()}


def _library_models() -> dict[str, str]:
    from npuready.docs_gen.library_models import build

    return {"docs/library-models.md": build()}


def _inputs() -> dict[str, str]:
    from npuready.docs_gen.inputs import build

    return {"docs/inputs.md": build()}


def _ops() -> dict[str, str]:
    from npuready.docs_gen.ops import DOC_PATH, render

    return {DOC_PATH: render()}


def _bitexact_realworld() -> dict[str, str]:
    from npuready.docs_gen.bitexact_realworld import DOC_PATH, render

    return {DOC_PATH: render()}


def _vendor_export() -> dict[str, str]:
    from npuready.docs_gen.vendor_export import DOC_PATH, render

    return {DOC_PATH: render()}


def _scaling() -> dict[str, str]:
    from npuready.docs_gen.scaling import build

    return {"docs/scaling.md": build()}


def _verify_tasks() -> dict[str, str]:
    from npuready.verify.tasks.docs_page import DOC_PATH, render

    return {DOC_PATH: render()}


def _mixed_precision() -> dict[str, str]:
    from npuready.docs_gen.mixed_precision import DOC_PATH, render

    return {DOC_PATH: render()}


GENERATORS: dict[str, Callable[[], dict[str, str]]] = {
    "rules": _rules,
    "support": _support,
    "nnapi-mirror": _nnapi_mirror,
    "targets": _targets,
    "partition-vs-nnapi": _partition_vs_nnapi,
    "cost-vs-vela": _cost_vs_vela,
    "preprocess": _preprocess,
    "configuration": _configuration,
    "library-models": _library_models,
    "ops": _ops,
    "bitexact-realworld": _bitexact_realworld,
    "inputs": _inputs,
    "scaling": _scaling,
    "verify-tasks": _verify_tasks,
    "vendor-export": _vendor_export,
    "mixed-precision": _mixed_precision,
}


def render_all() -> dict[str, str]:
    """Repo-relative path → content, in generator order (targets after the nnapi mirror it lists)."""
    pages: dict[str, str] = {}
    for gen in GENERATORS.values():
        pages.update(gen())
    return pages


def stale(root: Path | None = None) -> list[str]:
    base = root or repo_root()
    problems = []
    for rel, text in render_all().items():
        path = base / rel
        if not path.exists():
            problems.append(f"{rel}: missing; run 'npuready docs'")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(f"{rel}: stale; run 'npuready docs'")
    return problems
