import numpy as np
import torch

from npuready.data import detection_set
from npuready.models.detector import STRIDE
from npuready.models.train_detector import build_targets, decode_torch, mirror


def _targets(count=3):
    data = detection_set("test", count)
    cls, box, pos = build_targets(data, 96 // STRIDE, 10)
    x = torch.from_numpy(data.images).permute(0, 3, 1, 2).float()
    return data, x, cls, box, pos


def test_targets_mark_cells_inside_each_box_with_its_class_and_box():
    data, _, cls, box, pos = _targets()
    for i in range(len(data)):
        assert int(pos[i].sum()) >= len(data.boxes[i])
        for b, label in zip(data.boxes[i], data.labels[i]):
            cells = (box[i] == torch.from_numpy(b)[:, None, None]).all(0) & pos[i]
            assert cells.any() and bool((cls[i, int(label)][cells] == 1).all())


def test_mirror_moves_targets_with_the_image():
    data, x, cls, box, pos = _targets()
    flip = torch.tensor([True, False, True])
    mx, mc, mb, mp = mirror(x, cls, box, pos, flip, 96)
    assert torch.equal(mx[1], x[1]) and torch.equal(mb[1], box[1])
    for i in (0, 2):
        assert torch.equal(mx[i], x[i].flip(-1))
        for b in data.boxes[i]:
            x1, y1, x2, y2 = (float(v) for v in b)
            expected = torch.tensor([96 - x2, y1, 96 - x1, y2])
            cells = (mb[i] == expected[:, None, None]).all(0) & mp[i]
            assert cells.any()
            # each positive cell centre still lies inside its (mirrored) box
            ys, xs = torch.nonzero(cells, as_tuple=True)
            centres_x = (xs.float() + 0.5) * STRIDE
            assert bool(((centres_x > expected[0]) & (centres_x < expected[2])).all())


def test_decode_torch_inverts_ltrb_distances():
    dist = torch.zeros(1, 4, 12, 12)
    dist[0, :, 2, 3] = torch.tensor([1.0, 2.0, 3.0, 4.0])
    boxes = decode_torch(dist)[0, :, 2, 3].numpy()
    np.testing.assert_allclose(boxes, [(3.5 - 1) * 8, (2.5 - 2) * 8, (3.5 + 3) * 8, (2.5 + 4) * 8])
