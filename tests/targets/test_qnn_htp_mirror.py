"""The qnn-htp placement mirror: the QNN EP's op builders, hardware fields placeholders."""
from npuready.targets import load_target


def test_the_qnn_htp_mirror_is_placement_only_and_names_its_source():
    t = load_target("qnn-htp")
    assert t.kind == "mirror" and t.reference["tool"] == "onnxruntime-qnn" and "Placement-only" in t.description
    assert "op_builder_factory.cc" in t.sources["ops"] and "microsoft/onnxruntime@" in t.sources["ops"]
    # builders registered in that file: HardSwish/HardSigmoid/LayerNormalization yes, Erf/NonZero no
    assert all(t.runs_on_npu(op) for op in ("Conv", "HardSwish", "HardSigmoid", "Gelu", "LayerNormalization"))
    assert not any(t.runs_on_npu(op) for op in ("Erf", "NonZero", "GroupNormalization"))
    assert all(t.sources[g].startswith("placeholder") for g in ("array", "memory", "vector", "host", "energy"))
