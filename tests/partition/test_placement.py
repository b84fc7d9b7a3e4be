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
    assert {n for n, x in p.items() if x.device == NPU} == {"stem", "stem_relu", "stage", "stage_relu", "cls_head", "reg_head"}
    assert p["cls_sigmoid"].reason == "cpu: edges policy (post-processing after the last MAC op)"
