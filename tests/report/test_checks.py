from npuready.report import checks


def _cost(layers, cycles, npu_cycles, transfer_s=0.0, clock_mhz=100.0):
    return {"clock_mhz": clock_mhz, "layers": layers,
            "total": {"cycles": cycles, "npu_cycles": npu_cycles, "transfer_s": transfer_s}}


def test_cycles_sum_exact_and_broken():
    layers = [{"device": "npu", "cycles": 10}, {"device": "npu", "cycles": 5}, {"device": "cpu", "cycles": 7}]
    good = checks.cycles_sum(_cost(layers, 15 + 7 + 100, 15, transfer_s=1e-6))
    assert good["transfer_cycles"] == 100 and good["rounding_difference"] == 0 and good["ok"]
    assert not checks.cycles_sum(_cost(layers, 15 + 7 + 100, 16, transfer_s=1e-6))["ok"]
    assert not checks.cycles_sum(_cost(layers, 500, 15))["ok"]


def test_mac_agreement_limit_is_one_percent():
    assert checks.macs(1010, 1000, "x")["ok"] and not checks.macs(1011, 1000, "x")["ok"]
    assert checks.macs(5, None, "none")["ok"] is None


def _desc():
    names = ["/model.9/cv2/Conv", "/model.9/dfl/Softmax", "/model.9/Sub", "/model.9/Sigmoid", "/model.9/Concat"]
    nodes = [{"id": i, "name": n} for i, n in enumerate(names)]
    edges = [{"from": 0, "to": 1}, {"from": 1, "to": 2}, {"from": 2, "to": 4}, {"from": 0, "to": 3},
             {"from": 3, "to": 4}, {"from": 4, "to": "output:y"}]
    return {"nodes": nodes, "edges": edges}


def test_decode_nodes_are_the_head_nodes_downstream_of_the_dfl():
    assert checks.head_scope(_desc()) == "/model.9/"
    assert checks.decode_nodes(_desc()) == ["/model.9/Sub", "/model.9/Concat"]


def test_yolo_tail_check():
    seg = lambda tail: {"segments": [{"name": "body_0",
                                      "nodes": ["/model.9/cv2/Conv", "/model.9/dfl/Softmax", "/model.9/Sigmoid"]
                                      + ([] if tail else ["/model.9/Sub"])},
                                     {"name": "tail",
                                      "nodes": ["/model.9/Concat"] + (["/model.9/Sub"] if tail else [])}],
                        "placements": [{"node": n["name"], "device": "cpu", "reason": "cpu: post-processing"}
                                       for n in _desc()["nodes"]]}
    good = checks.yolo_tail(_desc(), seg(True))
    assert good["ok"] and good["decode_nodes"] == 2 and good["placement_reasons"] == {"cpu: post-processing": 2}
    bad = checks.yolo_tail(_desc(), seg(False))
    assert not bad["ok"] and bad["not_in_tail"] == ["/model.9/Sub"]
