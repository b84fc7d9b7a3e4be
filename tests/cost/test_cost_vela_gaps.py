"""Open gaps of a cost-vs-Vela comparison (npuready.cost.vela_gaps): medians, rows outside the goal, op-type
sums and zero-cost layers, on hand-made rows and on real Vela 5.2.0 output for pool_net (tests/cost/data)."""
from pathlib import Path

from npuready.cost import vela
from npuready.cost.examples import pool_net
from npuready.cost.vela_gaps import gaps
from npuready.experiments.runners.cost_vs_vela import compare
from npuready.graph import load
from npuready.targets import load_target

DATA = Path(__file__).parent / "data"


def _layer(op, ours, ref, tensor="t"):
    return {"tensor": tensor, "vela_operator": op, "ours_cycles": ours, "reference_cycles": ref}


def _models():
    return [
        {"model": "a", "target": "u55", "ratio": 0.5,
         "layers": [_layer("Conv2D", 100, 100), _layer("Transpose", 0, 100)]},
        {"model": "b", "target": "u55", "ratio": 1.0, "layers": [_layer("Conv2D", 300, 100)]},
        {"model": "c", "target": "u55", "ratio": 1.1, "layers": [_layer("Conv2D", 90, 100)]},
        {"model": "a", "target": "u65", "ratio": 0.85, "layers": [_layer("Conv2D", 85, 100)]},
    ]


def test_medians_and_totals_outside():
    g = gaps(_models())
    assert g["median_ratio"] == {"u55": 1.0, "u65": 0.85}
    assert g["median_ratio_all"] == 0.925
    assert g["median_goal_met"] is False  # the u65 median is outside 0.9-1.1
    assert g["totals_outside"] == [{"model": "a", "target": "u55", "ratio": 0.5}]
    assert g["totals_goal_met"] is False


def test_op_type_sums_and_zero_cost_layers():
    g = gaps(_models())
    conv55 = next(o for o in g["op_types"] if (o["target"], o["vela_operator"]) == ("u55", "Conv2D"))
    assert (conv55["ours_cycles"], conv55["reference_cycles"], conv55["layers"], conv55["ratio"]) == (490, 300, 3,
                                                                                                      1.633333)
    assert [(o["target"], o["vela_operator"]) for o in g["op_types_outside"]] == [("u55", "Conv2D"),
                                                                                  ("u55", "Transpose")]
    assert [(o["model"], o["vela_operator"], o["ratio"]) for o in g["model_op_types_outside"]] == [
        ("a", "Transpose", 0.0), ("b", "Conv2D", 3.0)]
    assert g["zero_cost_layers"] == [{"model": "a", "target": "u55", "tensor": "t", "vela_operator": "Transpose",
                                      "reference_cycles": 100}]


def test_no_layer_of_pool_net_is_costed_at_zero_on_the_u55_mirror():
    rows = vela.parse_per_layer(DATA / "vela_pool_net_u55-128_per-layer.csv")
    summary = vela.parse_summary(DATA / "vela_pool_net_u55-128_summary.csv")
    result = compare(load(pool_net()), load_target("ethos-u55-128"), rows, summary)
    g = gaps([{"model": "pool_net", "target": "ethos-u55-128", **result}])
    assert g["zero_cost_layers"] == [] and g["zero_cost_goal_met"] is True
    assert all(layer["ours_cycles"] > 0 for layer in result["layers"])


def test_an_operator_both_sides_cost_at_zero_is_not_off():
    models = [{"model": "v", "target": "u55", "ratio": 1.0,
               "layers": [_layer("Conv2D", 100, 100), _layer("GatherV2", 0, 0)]}]
    g = gaps(models)
    gather = next(o for o in g["op_types"] if o["vela_operator"] == "GatherV2")
    assert (gather["ratio"], g["op_types_outside"], g["op_types_goal_met"]) == (None, [], True)
