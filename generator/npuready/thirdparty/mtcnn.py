"""MTCNN's three nets (facenet-pytorch 2.6.0's trained P-, R- and O-Net) rebuilt in plain torch.

facenet-pytorch ships only state dicts; its own module imports torchvision, whose compiled ops do
not load here, so the nets are declared again layer for layer (same names, so the state dicts load
strictly) and exported with ``torch.onnx.export`` at opset 17, as a user of that package would.
Their input is (x − 127.5) / 128 on RGB; the outputs are (box regression, face probability) and, for
O-Net, five landmarks as well.
"""
from __future__ import annotations

import io
from pathlib import Path

from ..atomic import write_bytes
from ..errors import InputError

INPUT = {"pnet": (1, 3, 48, 48), "rnet": (1, 3, 24, 24), "onet": (1, 3, 48, 48)}


def _nets():
    from torch import nn

    class PNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.prelu1 = nn.Conv2d(3, 10, 3), nn.PReLU(10)
            self.pool1 = nn.MaxPool2d(2, 2, ceil_mode=True)
            self.conv2, self.prelu2 = nn.Conv2d(10, 16, 3), nn.PReLU(16)
            self.conv3, self.prelu3 = nn.Conv2d(16, 32, 3), nn.PReLU(32)
            self.conv4_1, self.softmax4_1 = nn.Conv2d(32, 2, 1), nn.Softmax(dim=1)
            self.conv4_2 = nn.Conv2d(32, 4, 1)

        def forward(self, x):
            x = self.pool1(self.prelu1(self.conv1(x)))
            x = self.prelu3(self.conv3(self.prelu2(self.conv2(x))))
            return self.conv4_2(x), self.softmax4_1(self.conv4_1(x))

    class RNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.prelu1 = nn.Conv2d(3, 28, 3), nn.PReLU(28)
            self.pool1 = nn.MaxPool2d(3, 2, ceil_mode=True)
            self.conv2, self.prelu2 = nn.Conv2d(28, 48, 3), nn.PReLU(48)
            self.pool2 = nn.MaxPool2d(3, 2, ceil_mode=True)
            self.conv3, self.prelu3 = nn.Conv2d(48, 64, 2), nn.PReLU(64)
            self.dense4, self.prelu4 = nn.Linear(576, 128), nn.PReLU(128)
            self.dense5_1, self.softmax5_1 = nn.Linear(128, 2), nn.Softmax(dim=1)
            self.dense5_2 = nn.Linear(128, 4)

        def forward(self, x):
            x = self.pool1(self.prelu1(self.conv1(x)))
            x = self.pool2(self.prelu2(self.conv2(x)))
            x = self.prelu3(self.conv3(x)).permute(0, 3, 2, 1).contiguous()
            x = self.prelu4(self.dense4(x.view(x.shape[0], -1)))
            return self.dense5_2(x), self.softmax5_1(self.dense5_1(x))

    class ONet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.prelu1 = nn.Conv2d(3, 32, 3), nn.PReLU(32)
            self.pool1 = nn.MaxPool2d(3, 2, ceil_mode=True)
            self.conv2, self.prelu2 = nn.Conv2d(32, 64, 3), nn.PReLU(64)
            self.pool2 = nn.MaxPool2d(3, 2, ceil_mode=True)
            self.conv3, self.prelu3 = nn.Conv2d(64, 64, 3), nn.PReLU(64)
            self.pool3 = nn.MaxPool2d(2, 2, ceil_mode=True)
            self.conv4, self.prelu4 = nn.Conv2d(64, 128, 2), nn.PReLU(128)
            self.dense5, self.prelu5 = nn.Linear(1152, 256), nn.PReLU(256)
            self.dense6_1, self.softmax6_1 = nn.Linear(256, 2), nn.Softmax(dim=1)
            self.dense6_2, self.dense6_3 = nn.Linear(256, 4), nn.Linear(256, 10)

        def forward(self, x):
            x = self.pool1(self.prelu1(self.conv1(x)))
            x = self.pool2(self.prelu2(self.conv2(x)))
            x = self.pool3(self.prelu3(self.conv3(x)))
            x = self.prelu4(self.conv4(x)).permute(0, 3, 2, 1).contiguous()
            x = self.prelu5(self.dense5(x.view(x.shape[0], -1)))
            return self.dense6_2(x), self.dense6_3(x), self.softmax6_1(self.dense6_1(x))

    return {"pnet": PNet, "rnet": RNet, "onet": ONet}


def export(net: str, state_dict: Path, out: Path) -> Path:
    """Load the trained ``net`` ("pnet", "rnet", "onet") from ``state_dict`` and write its ONNX."""
    try:
        import torch
    except ImportError as exc:
        raise InputError("MTCNN ships as PyTorch weights: install the torch extra "
                         "(pip install 'npuready[torch]') to export it") from exc
    model = _nets()[net]()
    model.load_state_dict(torch.load(state_dict, map_location="cpu", weights_only=True), strict=True)
    model.eval()
    outputs = ["boxes", "probs"] if net != "onet" else ["boxes", "landmarks", "probs"]
    buf = io.BytesIO()
    with torch.no_grad():
        torch.onnx.export(model, torch.zeros(INPUT[net]), buf, opset_version=17, dynamo=False,
                          input_names=["input"], output_names=outputs)
    return write_bytes(out, buf.getvalue())
