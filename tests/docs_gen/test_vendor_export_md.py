"""docs/vendor-export.md: the RKNN placement column and the disagreement list come from the result."""
import copy

from npuready.docs_gen.experiments import stored_result
from npuready.docs_gen.vendor_export import RESULT_PATH, render


def _with_placement(placement):
    result = copy.deepcopy(stored_result(RESULT_PATH))
    for name, m in result["results"].items():
        if name != "summary":
            for r in m["rknn"]:
                r["placement"] = placement
            m["qnn_htp"].pop("placement", None)  # HTP's side is set by the test that needs it
    return result


PLACEMENT = {"target": "rk3588", "nodes": 7, "agreeing": 6, "agreement": 0.857143, "nodes_with_layers": 4,
             "agreeing_with_layers": 3, "nodes_fused_inferred": 2, "nodes_folded_by_both": 1,
             "cpu_helper_layers": [{"layer": "Reshape:logits_mm_tp_rs", "node": "/fc/Gemm", "op_type": "Reshape"}],
             "io_layers": [], "unmapped_layers": [{"layer": "Mystery:x", "target": "CPU"}],
             "disagreements": [{"node": "/Add", "op_type": "Add", "npuready": "npu", "rknn": "cpu",
                                "rknn_layers": ["Add:/Add"], "cause": "librknnc runs it on its CPU fallback"}]}


def test_the_placement_column_and_every_disagreement_are_rendered():
    md = render(_with_placement(PLACEMENT))
    assert "RKNN placement vs npuready rk3588" in md
    assert "0.8571 (6 of 7 nodes; 3 of 4 with a layer of their own, 2 inferred, 1 folded by both)" in md
    assert "CPU helper layers: Reshape:logits\\_mm\\_tp\\_rs" in md
    assert "| /Add | Add | npu | cpu | Add:/Add | librknnc runs it on its CPU fallback | — |" in md
    assert "Mystery:x | a layer whose name matches no ONNX node or tensor | — |" in md


def test_an_htp_disagreement_gives_both_reasons():
    result = _with_placement(None)
    q = result["results"]["vit_tiny"]["qnn_htp"]
    q["placement"] = {"target": "qnn-htp", "nodes": 5, "agreeing": 4, "agreement": 0.8, "nodes_folded_by_both": 1,
                      "htp_cpu_not_float_nodes": [],
                      "disagreements": [{"node": "erf", "op_type": "Erf", "npuready": "npu", "htp": "cpu",
                                         "cause": "not supported by QNN EP", "npuready_reason": "a GELU pattern"}]}
    md = render(result)
    assert "0.8 (4 of 5 nodes, 1 folded by both)" in md
    assert "| vit\\_tiny | QNN HTP | erf | Erf | npu | cpu | — | not supported by QNN EP | a GELU pattern |" in md


def test_no_disagreement_says_so_and_a_result_without_the_column_renders():
    clean = render(_with_placement({**PLACEMENT, "disagreements": [], "unmapped_layers": []}))
    assert "None: every compared node is placed alike" in clean
    old = render(_with_placement(None))
    assert "RKNN placement vs npuready rk3588" in old and "None: every compared node" in old
