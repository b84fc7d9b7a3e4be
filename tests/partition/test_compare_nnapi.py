from npuready.partition.compare_nnapi import compare


def test_comparison_rows_and_explained_differences():
    result = compare()
    assert result["evidence"] == "analysis"
    rows = {r["model"]: r for r in result["models"]}
    assert list(rows) == ["yolo_like", "uint8_classifier", "transformer_like", "light_resnet50"]
    for name in ("uint8_classifier", "transformer_like", "light_resnet50"):
        assert rows[name]["node_differences"] == []
        assert rows[name]["npuready"]["npu_segments"] == rows[name]["ort"]["partitions"]
        assert rows[name]["npuready"]["npu_nodes"] == rows[name]["ort"]["supported_nodes"]
    assert "ai.onnx:LayerNormalization" in rows["transformer_like"]["ort"]["unsupported_ops"]
    yolo = rows["yolo_like"]
    diffs = {d["node"]: d for d in yolo["node_differences"]}
    assert set(diffs) == {"cls_shape_nc", "cls_target", "cls_sigmoid"}
    assert diffs["cls_sigmoid"]["npuready"] == "npu" and diffs["cls_sigmoid"]["ort"] == "CPU"
    assert "without data propagation" in diffs["cls_sigmoid"]["reason"]
    assert diffs["cls_target"]["npuready"] == "folded"
    assert yolo["npuready"]["npu_segments"] != yolo["ort"]["partitions"]
    assert all(d["reason"] for d in yolo["node_differences"])
    for r in rows.values():  # every node accounted for on both sides
        o = r["npuready"]
        assert o["npu_nodes"] + o["cpu_nodes"] + o["folded_nodes"] == r["ort"]["total_nodes"]
