"""`npuready site [--out DIR] [--check]`: stored experiment JSON + docs → static site + docs/EXPERIMENTS.md.

EXPERIMENTS.md is generated in memory first and the site renders the docs with that in-memory
version, so one build is consistent and ``--check`` can regenerate everything and compare bytes.
This module wires the renderer (npuready.site, which imports no pipeline code) to the docs generator
and to the experiments' spec-freshness check.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the renderer (jinja2, pandas, altair) is imported only when this verb runs
    from npuready.site.render import SiteBuild


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "site", help="build the static workbench site (site/index.html) and docs/EXPERIMENTS.md",
        description="Render experiments/*/result.json and docs/**/*.md into site/index.html (+ assets, one script per "
                    "tab and per result, loaded when needed) and "
                    "regenerate docs/EXPERIMENTS.md. Reads only stored JSON and Markdown; never runs the "
                    "pipeline. Every number on the page opens its raw JSON record; a number without a JSON "
                    "source fails the build. The page opens from file:// with zero network requests.",
        epilog="Exit codes: 0 ok (or --check: everything fresh), 1 --check found stale results, docs or "
               "site, 2 unusable input (malformed result.json, figure without a source).")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: site/ in the repository)")
    p.add_argument("--experiments", type=Path, default=None, help="experiments folder (default: experiments/)")
    p.add_argument("--docs", type=Path, default=None, help="docs folder (default: docs/)")
    p.add_argument("--lenient", action="store_true",
                   help="when a hand-designed view cannot read an experiment's layout, show that experiment "
                        "in the generic view with a warning instead of failing the build")
    p.add_argument("--history", action="store_true",
                   help="also write history-data.js and history.json from the repository's git history (built, not "
                        "committed: the Pages workflow uses it) and let the History view load them; without it the "
                        "History view says it was not built and the page asks for no such file")
    p.add_argument("--check", action="store_true",
                   help="write nothing; fail when a spec changed without its result, or when the content of "
                        "docs/EXPERIMENTS.md or the site differs from what the current JSON renders to (the commit "
                        "a result was produced at is not compared: a rerun that stores the same values is fresh)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    exp_dir, docs_dir, out = _paths(args)
    if args.check:
        from npuready.commands.output import check_result

        return check_result(check_all(exp_dir, docs_dir, out, strict=not args.lenient),
                            f"site and docs/EXPERIMENTS.md are fresh ({out})")
    _check_out(out)  # a device, FIFO or file as --out: refused before the build
    build, experiments_md = build_all(exp_dir, docs_dir, strict=not args.lenient, history=args.history)
    written = write_all(build, experiments_md, docs_dir, out)
    for warning in build.warnings:  # after the writes: a failed write prints its one error line alone
        print(f"npuready site: warning: {warning}", file=sys.stderr)
    weight = sum(len(v) for v in build.files.values())
    print(f"wrote {len(written)} files to {out} and {docs_dir / 'EXPERIMENTS.md'}: "
          f"{build.figures} drillable numbers, {weight / 1024:.0f} KiB generated")
    if args.history:  # built, not committed: it moves with every commit
        from npuready.history.publish import summary_line, write_history
        from npuready.paths import repo_root

        print(summary_line(write_history(out, repo_root())[0]))
    return 0


def _check_out(out: Path) -> None:
    """``--out`` must be a folder or new; what exists and is not one (a file, device, FIFO) is refused."""
    import os
    import stat

    from npuready.atomic import kind_of
    from npuready.errors import InputError

    try:
        st = os.stat(out)  # follows a symlink: a link to a folder is written through
    except FileNotFoundError:
        return
    except OSError as exc:
        raise InputError(f"--out {out}: cannot use it ({exc.strerror or exc})") from None
    if not stat.S_ISDIR(st.st_mode):
        what = "a file" if stat.S_ISREG(st.st_mode) else kind_of(st.st_mode)
        raise InputError(f"--out {out}: is {what}, not a folder; give a folder for the site")


def _paths(args: argparse.Namespace) -> tuple[Path, Path, Path]:
    from npuready.paths import docs_dir, experiments_dir, site_dir

    return (args.experiments or experiments_dir(), args.docs or docs_dir(), args.out or site_dir())


EXPERIMENTS_MD = "EXPERIMENTS"


def build_all(exp_dir: Path, docs_dir: Path, strict: bool = True, history: bool = False) -> tuple["SiteBuild", str]:
    from npuready.docs_gen.experiments import render_experiments_md
    from npuready.history.publish import HISTORY_SCRIPT
    from npuready.site.render import render_site
    from npuready.site.source import Doc, load_docs, load_experiments

    experiments = load_experiments(exp_dir)
    experiments_md = render_experiments_md(experiments)
    docs = load_docs(docs_dir)
    docs[EXPERIMENTS_MD] = Doc(name=EXPERIMENTS_MD, text=experiments_md)
    return render_site(experiments, docs, strict=strict,
                       history_script=HISTORY_SCRIPT if history else ""), experiments_md


def write_all(build: "SiteBuild", experiments_md: str, docs_dir: Path, out: Path) -> list[Path]:
    from npuready.atomic import write_text
    from npuready.paths import site_dir
    from npuready.site.render import write_site
    from npuready.site.vendor import VENDOR_FILES

    from npuready.atomic import resolve_target

    md_path = docs_dir / f"{EXPERIMENTS_MD}.md"
    for path in (*(out / rel for rel in sorted(build.files)), md_path):  # a device, FIFO or folder where a
        resolve_target(path)  # page goes: refused before the first file is written, not half-way through
    written = write_site(build, out)
    written.append(write_text(md_path, experiments_md))
    home = site_dir()
    if out.resolve() != home.resolve():  # a build elsewhere still needs the committed chart runtime
        for rel in VENDOR_FILES:
            if (home / rel).is_file() and not (out / rel).is_file():
                (out / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(home / rel, out / rel)
    return written


def check_all(exp_dir: Path, docs_dir: Path, out: Path, strict: bool = True) -> list[str]:
    from npuready.experiments.freshness import stale_experiments
    from npuready.site.render import stale_files
    from npuready.site.vendor import missing_vendor_files
    from npuready.site.volatile import content_key

    problems = list(stale_experiments(exp_dir))
    build, experiments_md = build_all(exp_dir, docs_dir, strict=strict)
    md_path = docs_dir / f"{EXPERIMENTS_MD}.md"
    if not md_path.is_file() or content_key(md_path.read_bytes()) != content_key(experiments_md.encode("utf-8")):
        problems.append(f"{md_path}: not what the current experiment JSON renders to; run 'npuready site'")
    problems += [f"{p}: not what the current experiment JSON renders to; run 'npuready site'"
                 for p in stale_files(build, out)]
    problems += [f"{p}: vendored chart runtime missing; run 'bash tools/vendor_js.sh'"
                 for p in missing_vendor_files(out)]
    return problems
