import numpy as np
import pytest
from rule_models import findings, ids, one

X = [1, 64, 4, 4]
Y = [1, 64, 8, 8]
SCALES = np.array([1, 1, 2, 2], np.float32)


@pytest.mark.parametrize("mode", ["linear", "cubic"])
def test_linear_and_cubic_resize_are_flagged(mode):
    (f,) = findings(one("Resize", X, Y, {"mode": mode}, extra=[("", None), ("scales", SCALES)]), "R007")
    assert (f.evidence["value"], f.evidence["limit"]) == (mode, "nearest")


def test_nearest_resize_passes_and_is_the_default():
    assert ids(one("Resize", X, Y, {"mode": "nearest"}, extra=[("", None), ("scales", SCALES)])) == []
    assert ids(one("Resize", X, Y, extra=[("", None), ("scales", SCALES)])) == []


def test_old_upsample_bilinear_is_flagged():
    m = one("Upsample", X, Y, {"mode": "bilinear"}, extra=[("scales", SCALES)], opset=9)
    assert [f.evidence["value"] for f in findings(m, "R007")] == ["linear"]
