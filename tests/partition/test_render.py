"""The partition text fits 80 columns."""
from npuready.partition import plan_partition
from npuready.partition.render import render_text
from npuready.paths import repo_root
from npuready.terminal import overlong


def test_text_at_80_columns_has_no_breakable_line_over_80():
    for name in ("detector", "vit_tiny"):
        plan = plan_partition(repo_root() / "zoo" / f"{name}.onnx", target="edge-10")
        assert overlong(render_text(plan, width=80), 80) == []
