from npuready.graph import load
from npuready.partition.examples import uint8_classifier, yolo_like
from npuready.partition.placement import CPU, FOLDED, NPU, place
from npuready.targets import load_target


def test_folded_constants_and_shape_helpers_of_the_detector():
    g = load(yolo_like())
    assert g.folded == {"anchor_points", "cls_shape", "cls_shape_nc", "cls_target"}


def test_reasons_lint_unsupported_dynamic():
    g = load(yolo_like())
    p = place(g, load_target("edge-10"), {"nms": ("R002",)})
    assert p["nms"].device == CPU and p["nms"].reason == "cpu: lint ERROR R002"
    assert p["gather_boxes"].reason == "cpu: dynamic or unknown shape"
    assert p["stem"].device == NPU and p["anchor_points"].device == FOLDED
    g2 = load(uint8_classifier())
    p2 = place(g2, load_target("edge-10"), {})
    assert p2["to_float"].reason == "cpu: Cast not supported by target edge-10"
    assert p2["argmax"].reason == "cpu: ArgMax not supported by target edge-10"


def test_edges_cpu_moves_pre_and_post_processing():
    g = load(uint8_classifier())
    p = place(g, load_target("edge-10"), {}, edges="cpu")
    cpu = {n for n, x in p.items() if x.device == CPU}
    assert cpu == {"to_float", "scale_255", "sub_mean", "div_std", "nhwc_to_nchw", "argmax"}
    assert p["scale_255"].reason == "cpu: edges policy (pre-processing before the first MAC op)"
    g = load(yolo_like())
    p = place(g, load_target("edge-10"), {}, edges="cpu")
    assert {n for n, x in p.items() if x.device == NPU} == {"stem", "stem_relu", "stage", "stage_relu", "cls_head",
                                                            "reg_head"}
    assert p["cls_sigmoid"].reason == "cpu: edges policy (post-processing after the last MAC op)"


def test_placement_follows_the_targets_declarations_and_the_profile():
    """LayerNorm: on the NPU where the target declares it (edge-10 native, Ethos-U lowered), on the host where it
    does not; the portable profile's R006 ERROR keeps it on the CPU everywhere."""
    from npuready.lint.policy_cases import _norm
    from npuready.partition.plan import plan_partition

    g = _norm("LayerNormalization")
    u55 = place(g, load_target("ethos-u55-128"), {})["node"]
    assert u55.device == NPU
    assert u55.reason.startswith("npu: LayerNormalization runs on ethos-u55-128 via Vela's lowering")
    nolut = place(g, load_target("edge-10-nolut"), {})["node"]
    assert nolut.device == CPU and nolut.reason == ("cpu: LayerNormalization: edge-10-nolut cannot run it: its [norms] "
                                                    "table marks LayerNormalization 'host'")
    for target in ("edge-10", "ethos-u55-128"):
        assert plan_partition(g, target).placements[0].device == NPU
        assert plan_partition(g, target, profile="portable").placements[0].reason == "cpu: lint ERROR R006"


def test_a_gelu_pattern_member_follows_its_core():
    """Div runs on the Vela mirror only as part of the GELU; when the Erf is kept off the NPU, so is the Div."""
    from npuready.lint.policy_cases import _gelu

    g = _gelu()
    t = load_target("ethos-u55-128")
    assert place(g, t, {})["div"].device == NPU
    p = place(g, t, {"erf": ("R005",)})
    assert p["erf"].device == CPU and p["div"].device == CPU and "'erf' has a lint ERROR" in p["div"].reason
