"""Text groups by severity then rule; JSON carries the fields the issue names."""
from __future__ import annotations

import json

from npuready.lint import lint
from npuready.lint import examples as ex
from npuready.lint.registry import RULES
from npuready.lint.render import render


def _mixed():
    m = ex.conv_relu(shape=(2, 3, 16, 16), channels=10, name="mixed")  # R001b ERROR + R004 WARN
    return lint(m, target="edge-10")


def test_json_fields():
    data = json.loads(render([_mixed()], "json"))
    assert {"model", "target", "options", "findings", "summary", "blocked"} <= set(data)
    assert data["options"] == {"allow_batched_input": False, "profile": "target"}
    assert data["summary"] == {"errors": 1, "warnings": 1, "infos": 0}
    assert data["suppressed"] == {"waived": 0, "baselined": 0}
    assert data["blocked"] is True
    for f in data["findings"]:
        assert {"rule", "severity", "node", "op_type", "message", "reason", "fix"} <= set(f)
    assert [(f["rule"], f["severity"]) for f in data["findings"]] == [("R001b", "ERROR"), ("R004", "WARN")]
    assert data["findings"][0]["reason"] == RULES["R001b"].why


def test_json_of_several_models_is_a_list():
    data = json.loads(render([_mixed(), lint(RULES["R003"].good_example())], "json"))
    assert [d["blocked"] for d in data] == [True, False]


def test_text_groups_errors_before_warnings_with_fix():
    text = render([_mixed()], "text")
    lines = text.splitlines()
    assert lines[0] == "mixed  [target edge-10]  BLOCKED: 1 error(s), 1 warning(s)"
    err, warn = lines.index("  ERROR (blocks deployment)"), lines.index("  WARN (recorded only)")
    assert err < warn
    assert lines[err + 1].startswith("    R001b  Deployment graphs have batch 1  [1]")
    assert any(line.strip().startswith("fix: ") for line in lines[err:warn])
    assert lines[-1].startswith("basis: ")


def test_text_lists_a_few_findings_per_rule_and_counts_the_rest():
    from onnx import helper

    from npuready.lint.render.text import MAX_LISTED

    n = MAX_LISTED + 3
    nodes = [helper.make_node("Softsign", [f"t{i}"], [f"t{i + 1}"], name=f"act{i}") for i in range(n)]
    m = ex.model(nodes, [ex.value("t0", [1, 4])], [ex.value(f"t{n}", [1, 4])])
    text = render([lint(m, target="edge-10")], "text")
    assert f"    R005  Activation outside the target's allowlist  [{n}]" in text
    assert text.count("      - act") == MAX_LISTED
    assert "      ... and 3 more (--format json lists every finding)" in text
    assert len(json.loads(render([lint(m, target="edge-10")], "json"))["findings"]) == n
