"""PyTorch export helper: logits out with static shapes; graph + npuready.runtime == the torch model end to end."""
import numpy as np
import onnxruntime as ort
import pytest

from npuready.errors import InputError
from npuready.graph import load
from npuready.runtime import make_anchors, postprocess
from npuready.runtime.export import export_logits

torch = pytest.importorskip("torch", reason="torch is an optional extra (pip install 'npuready[torch]')")
nn = torch.nn

SIZE, STRIDE, CLASSES = 64, 4, 2


class TinyDetector(nn.Module):
    """Anchor-free detector: forward returns raw logits; predict() is its own end-to-end post-processing."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.ReLU(), nn.Conv2d(8, 16, 3, 2, 1), nn.ReLU())
        self.cls = nn.Conv2d(16, CLASSES, 1)
        self.reg = nn.Conv2d(16, 4, 1)
        nn.init.constant_(self.cls.bias, 0.5)

    def forward(self, x):
        f = self.stem(x)
        return self.cls(f).flatten(2), (self.reg(f).abs() * 2.0 + 3.0).flatten(2)

    @torch.no_grad()
    def predict(self, x, score_threshold=0.6, iou_threshold=0.5):
        cls, dist = self(x)
        scores = torch.sigmoid(cls[0])  # [C, N]
        g = SIZE // STRIDE
        ys, xs = torch.meshgrid(torch.arange(g) + 0.5, torch.arange(g) + 0.5, indexing="ij")
        anchors = torch.stack([xs.flatten(), ys.flatten()], -1)
        d = dist[0].T
        boxes = torch.cat([anchors - d[:, :2], anchors + d[:, 2:]], -1) * STRIDE
        out_b, out_s, out_l = [], [], []
        for c in range(scores.shape[0]):
            s = scores[c]
            order = [int(i) for i in torch.argsort(-s, stable=True) if s[i] > score_threshold]
            while order:
                i = order.pop(0)
                out_b.append(boxes[i]); out_s.append(s[i]); out_l.append(c)
                order = [j for j in order if _iou(boxes[i], boxes[j]) <= iou_threshold]
        s = torch.stack(out_s)
        keep = torch.argsort(-s, stable=True)
        return torch.stack(out_b)[keep].numpy(), s[keep].numpy(), np.array(out_l)[keep.numpy()]


def _iou(a, b):
    iw = (torch.minimum(a[2], b[2]) - torch.maximum(a[0], b[0])).clamp(min=0)
    ih = (torch.minimum(a[3], b[3]) - torch.maximum(a[1], b[1])).clamp(min=0)
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return float(inter / union) if union > 0 else 0.0


def test_export_logits_then_cpu_postprocess_equals_torch(tmp_path):
    torch.manual_seed(0)
    model = TinyDetector()
    path = export_logits(model, (1, 3, SIZE, SIZE), tmp_path / "det.onnx")
    graph = load(path)
    assert [t.shape for t in graph.outputs] == [(1, CLASSES, (SIZE // STRIDE) ** 2), (1, 4, (SIZE // STRIDE) ** 2)]
    assert "Sigmoid" not in {n.op_type for n in graph.nodes}
    x = np.random.default_rng(5).random((1, 3, SIZE, SIZE), dtype=np.float32)
    cls, dist = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"images": x})
    anchors, strides = make_anchors([(SIZE // STRIDE, SIZE // STRIDE)], [STRIDE])
    det = postprocess(cls, dist, anchors, strides, score_threshold=0.6, iou_threshold=0.5, max_det=10_000)
    ref_boxes, ref_scores, ref_labels = model.predict(torch.from_numpy(x))
    candidates = int((1 / (1 + np.exp(-cls)) > 0.6).sum())
    assert 3 < len(ref_scores) < candidates // 2  # several kept, most suppressed by NMS
    assert set(ref_labels.tolist()) == {0, 1}
    np.testing.assert_array_equal(det.labels, ref_labels)
    np.testing.assert_allclose(det.scores, ref_scores, rtol=0, atol=1e-5)
    np.testing.assert_allclose(det.boxes, ref_boxes, rtol=0, atol=1e-4)


class _WithSigmoid(nn.Module):
    def forward(self, x):
        return torch.sigmoid(x * 2.0)


def test_export_refuses_post_processing_in_the_graph(tmp_path):
    with pytest.raises(InputError, match="post-processing ops \\['Sigmoid'\\]"):
        export_logits(_WithSigmoid(), (1, 3, 8, 8), tmp_path / "s.onnx", output_names=("y",))
    assert export_logits(_WithSigmoid(), (1, 3, 8, 8), tmp_path / "ok.onnx", output_names=("y",),
                         allow_ops=["Sigmoid"]).exists()


def test_export_refuses_non_static_shape(tmp_path):
    with pytest.raises(InputError, match="positive integer"):
        export_logits(TinyDetector(), (1, 3, 0, SIZE), tmp_path / "bad.onnx")


def test_decoding_ops_are_postprocessing_too():
    """ArgMin and NonZero decode scores like ArgMax and TopK: kept out of a logits-out graph as well."""
    from npuready.runtime.export import POSTPROCESS_OPS

    assert {"ArgMin", "NonZero", "ArgMax", "TopK", "NonMaxSuppression", "Sigmoid", "Softmax"} == POSTPROCESS_OPS
