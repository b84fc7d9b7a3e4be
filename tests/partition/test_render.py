"""The partition text fits 80 columns."""
from npuready.partition import plan_partition
from npuready.partition.render import render_text
from npuready.paths import repo_root
from npuready.terminal import overlong


def test_text_at_80_columns_has_no_breakable_line_over_80():
    for name in ("detector", "vit_tiny"):
        plan = plan_partition(repo_root() / "zoo" / f"{name}.onnx", target="edge-10")
        assert overlong(render_text(plan, width=80), 80) == []


def test_crossings_are_stated_with_their_element_count_and_dtype():
    from npuready.partition.examples import transformer_like

    plan = plan_partition(transformer_like(), target="nnapi-mirror")
    d = plan.to_dict()
    assert (d["transfer_elements_per_inference"], d["transfer_bytes_per_inference"]) == (27658, 110632)
    first = d["crossings"][0]["tensor"]  # the graph input
    assert (first["dtype"], first["elements"], first["bytes"], first["npu_bytes"]) == ("float32", 3072, 12288, 3072)
    flat = " ".join(render_text(plan, width=80).split())
    assert ("CPU↔NPU crossings: 27,658 elements = 108.0 KiB per inference as exported (float32); the int8 NPU "
            "build ('npuready cost') moves 27.0 KiB") in flat
    assert "cpu→npu input → body_0: x [1,3,32,32] (NCHW): 3,072 elements × float32 = 12.0 KiB" in flat
