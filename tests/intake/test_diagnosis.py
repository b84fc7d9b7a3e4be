"""Diagnosis of ONNX models that are not in the zoo: lint, partition verdict, hot spots, risks."""
from __future__ import annotations

from intake_models import conv_net
from npuready.intake.diagnosis import TOP_LAYERS, diagnose
from npuready.partition.examples import transformer_like


def test_transformer_like_runs_in_one_body_where_the_target_declares_layernorm():
    d = diagnose(transformer_like(), "edge-10")  # edge-10's [norms]: LayerNormalization native
    assert d.lint_errors == 0 and [f.severity.value for f in d.lint.by_rule("R006")] == ["INFO", "INFO"]
    assert d.partition["verdict"] == "one-body"


def test_transformer_like_is_fragmented_by_layernorm_and_its_norms_are_the_hot_spots():
    d = diagnose(transformer_like(), "edge-10-nolut")  # LayerNormalization marked host
    assert [f.rule for f in d.lint.errors] == ["R006", "R006"]
    assert d.partition["verdict"] == "fragmented" and d.partition["npu_segments"] == 3
    assert [s["op_type"] for s in d.partition["splitters"]] == ["LayerNormalization", "LayerNormalization"]
    assert len(d.hotspots) == TOP_LAYERS
    assert [h.node for h in d.hotspots[:2]] == ["blk0_layernorm", "blk1_layernorm"]
    assert all(h.device == "cpu" for h in d.hotspots[:2])
    cycles = [h.cycles for h in d.hotspots]
    assert cycles == sorted(cycles, reverse=True)
    assert d.hotspots[0].share == d.hotspots[0].cycles / d.cost["cycles"]
    out = d.to_dict()
    assert out["cost"]["evidence"] == "simulated"
    assert [r["kind"] for r in out["risks"]] == ["unfoldable-norm", "unfoldable-norm", "integer-coverage",
                                                "integer-coverage"]  # LayerNorm: no INT8 TFLite lowering


def test_clean_model_has_one_body_and_no_errors():
    d = diagnose(conv_net(), "edge-10")
    assert d.lint_errors == 0 and d.partition["verdict"] == "one-body"
    assert d.inputs == ({"name": "x", "shape": [1, 1, 16, 16], "dtype": "float32"},)
    assert d.hotspots[0].share <= 1.0 and d.hotspots[0].cycles > 0


def test_text_report_names_integer_coverage_gaps_before_quantizing(tmp_path):
    import onnx

    from npuready.intake.report import intake
    from npuready.intake.render import render

    path = tmp_path / "t.onnx"
    onnx.save(transformer_like(), path)
    text = render(intake(str(path), "edge-10"), "text")
    assert ("integer engine / INT8 TFLite coverage: 2 node(s) not runnable yet (LayerNormalization): 'npuready "
            "verify' or its --litert check stops there (docs/ops.md)") in " ".join(text.split())
