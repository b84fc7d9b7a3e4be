"""The same shape-computation patterns as torch writes them (torch.onnx.export, dynamo=False, opset 17).

Small modules with ShuffleNet's chunk + channel shuffle, ViT's cls-token expand and a ``view(x.size(0), -1)``
flatten; random weights. MACs are checked against torch's own FlopCounterMode on the same module.
"""
import io

import pytest

torch = pytest.importorskip("torch")

from npuready.cost import estimate  # noqa: E402
from npuready.graph import load  # noqa: E402
from npuready.graph.pins import ShapePins  # noqa: E402
from npuready.lint import lint  # noqa: E402


class Shuffle(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 4, 1)
        self.head = torch.nn.Linear(8 * 6 * 6, 5)

    def forward(self, x):
        a, b = x.chunk(2, dim=1)
        x = torch.cat([a, self.conv(b)], dim=1)
        n, c, h, w = x.size()
        x = x.view(n, 2, c // 2, h, w).transpose(1, 2).reshape(n, -1, h, w)
        return self.head(x.view(x.size(0), -1))


class ClsToken(torch.nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.patch = torch.nn.Conv2d(3, dim, 4, stride=4)
        self.cls = torch.nn.Parameter(torch.randn(1, 1, dim))
        self.qkv = torch.nn.Linear(dim, 3 * dim)

    def forward(self, x):
        t = self.patch(x).flatten(2).transpose(1, 2)
        t = torch.cat([self.cls.expand(t.shape[0], -1, -1), t], dim=1)
        q, k, v = self.qkv(t).chunk(3, dim=-1)
        return (q @ k.transpose(-2, -1)).softmax(-1) @ v


def _export(module, shape, dynamic: bool):
    buf = io.BytesIO()
    kwargs = {"dynamic_axes": {"image": {0: "batch"}}} if dynamic else {}
    torch.onnx.export(module.eval(), (torch.randn(*shape),), buf, dynamo=False, opset_version=17,
                      input_names=["image"], output_names=["out"], **kwargs)
    return buf.getvalue()


def _torch_macs(module, shape) -> int:
    from torch.utils.flop_counter import FlopCounterMode

    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        module(torch.randn(*shape))
    return counter.get_total_flops() // 2


@pytest.mark.parametrize("module, shape", [(Shuffle(), (1, 8, 6, 6)), (ClsToken(), (1, 3, 16, 16))])
def test_static_export_has_no_dynamic_axes_and_torch_s_mac_count(module, shape, tmp_path):
    torch.manual_seed(0)
    path = tmp_path / "m.onnx"
    path.write_bytes(_export(module, shape, dynamic=False))
    g = load(path)
    assert lint(g).by_rule("R001a") == ()
    assert g.shape_folded  # the export computes shapes in the graph
    report = estimate(g)
    assert report.macs == _torch_macs(module, shape)
    assert all(la.device == "npu" for la in report.layers if la.op_type in ("Conv", "MatMul", "Gemm"))


@pytest.mark.parametrize("module, shape", [(Shuffle(), (1, 8, 6, 6)), (ClsToken(), (1, 3, 16, 16))])
def test_dynamic_batch_export_pinned_to_1_costs_like_the_static_one(module, shape, tmp_path):
    (tmp_path / "s.onnx").write_bytes(_export(module, shape, dynamic=False))
    (tmp_path / "d.onnx").write_bytes(_export(module, shape, dynamic=True))
    static = estimate(load(tmp_path / "s.onnx"))
    pinned = estimate(load(tmp_path / "d.onnx", pins=ShapePins(batch=1)))
    assert pinned.cycles == static.cycles and pinned.macs == static.macs
