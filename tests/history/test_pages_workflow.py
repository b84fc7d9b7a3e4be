"""The Pages workflow checks out the whole history (the History view reads it) and builds the site there."""
from pathlib import Path

import yaml

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"


def _steps(name: str) -> list[dict]:
    doc = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    return [s for job in doc["jobs"].values() for s in job.get("steps", [])]


def test_pages_and_ci_fetch_every_commit_and_pages_builds_the_site_after_checkout():
    for name in ("pages.yml", "ci.yml"):
        checkout = [s for s in _steps(name) if str(s.get("uses", "")).startswith("actions/checkout@")]
        assert [s.get("with", {}).get("fetch-depth") for s in checkout] == [0], name
    steps = _steps("pages.yml")
    builds = [i for i, s in enumerate(steps) if "npuready site" in str(s.get("run", ""))]
    first_checkout = next(i for i, s in enumerate(steps) if str(s.get("uses", "")).startswith("actions/checkout@"))
    assert builds and builds[0] > first_checkout
