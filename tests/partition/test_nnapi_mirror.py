from npuready.partition.nnapi_mirror import mirror_toml, read_ort_ops, target_path
from npuready.targets import load_target


def test_committed_target_file_is_fresh():
    assert target_path().read_text(encoding="utf-8") == mirror_toml(), \
        "run: python -m npuready.partition.nnapi_mirror"


def test_target_ops_equal_onnxruntime_nnapi_list():
    target = load_target("nnapi-mirror")
    rows = read_ort_ops()
    assert target.supported_ops == {op for domain, op, _ in rows if domain == "ai.onnx"}
    assert target.kind == "mirror"
    assert all(target.runs_on_npu(op) for op in target.supported_ops)
    assert not target.runs_on_npu("LayerNormalization") and not target.runs_on_npu("NonMaxSuppression")
