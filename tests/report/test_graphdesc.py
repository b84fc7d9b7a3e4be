from report_models import if_model

from npuready.graph import load
from npuready.paths import zoo_dir
from npuready.report.graphdesc import describe


def test_if_subgraphs_are_collapsed_into_their_node():
    desc = describe(load(if_model()))
    assert desc["node_count"] == 2 and desc["node_count_with_subgraphs"] == 5
    assert [n["name"] for n in desc["nodes"]] == ["relu", "branch"]
    subs = desc["nodes"][1]["subgraphs"]
    assert sorted((s["scope"], s["nodes"], s["op_types"]) for s in subs) == [
        ("branch.else_branch", 1, {"Identity": 1}), ("branch.then_branch", 2, {"Abs": 1, "Neg": 1})]
    assert desc["collapsed_subgraphs"] == 2


def test_edges_run_from_inputs_through_nodes_to_outputs_without_weights():
    desc = describe(load(zoo_dir() / "tinycnn.onnx"))
    first = desc["nodes"][0]
    assert first["op_type"] == "Conv" and len(first["weights"]) == 2 and first["inputs"] == ["input"]
    assert first["attrs"]["kernel_shape"] == [3, 3]
    assert desc["edges"][0] == {"from": "input:input", "to": 0, "tensor": "input", "shape": [1, 1, 28, 28],
                                "dtype": "float32"}
    assert desc["edges"][-1]["to"] == "output:" + desc["outputs"][0]["name"]
    ids = {n["id"] for n in desc["nodes"]}
    assert all((e["from"] in ids or str(e["from"]).startswith("input:")) and
               (e["to"] in ids or str(e["to"]).startswith("output:")) for e in desc["edges"])


class _CountedTuple(tuple):
    """A tuple that counts how often it is walked."""
    walks = 0

    def __iter__(self):
        type(self).walks += 1
        return super().__iter__()


def test_describe_walks_the_graph_inputs_a_fixed_number_of_times_not_once_per_edge():
    from report_models import sum_model

    graph = load(sum_model(200))
    graph.inputs = _CountedTuple(graph.inputs)
    desc = describe(graph)
    assert len(desc["edges"]) == 201 and len(desc["inputs"]) == 200
    assert _CountedTuple.walks <= 3  # was one walk per edge (20,000 inputs: past 300 s)
