"""docs/configuration.md lists every configuration key, and its example is a valid configuration."""
from __future__ import annotations

from npuready.docs_gen.configuration import EXAMPLE, render_configuration_md
from npuready.lint.config import KEYS, WAIVER_KEYS, load_config
from npuready.lint.rule import Severity


def test_every_key_is_documented():
    page = render_configuration_md()
    for key in (*KEYS, *WAIVER_KEYS):
        assert f"| `{key}` |" in page


def test_the_example_loads(tmp_path):
    (tmp_path / "pyproject.toml").write_text(EXAMPLE)
    cfg = load_config(tmp_path / "pyproject.toml")
    assert (cfg.target, cfg.ignore, cfg.severity, len(cfg.waivers)) == ("edge-10", ("R004",),
                                                                        {"R007": Severity.WARN}, 1)
