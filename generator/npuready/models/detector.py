"""A small anchor-free YOLO-style detector (one stride-8 level, YOLOv8-like decoupled head).

The graph ends at raw logits: ``box_dist`` (1×4×G×G, left/top/right/bottom distances from each cell
centre in stride units) and ``cls_logits`` (1×C×G×G). Sigmoid, dist2bbox decoding and NMS run on
the CPU in numpy (see ``npuready.models.detector_post``), so the NPU graph holds no
data-dependent shapes and no Sigmoid.
"""
from __future__ import annotations

from torch import nn

STRIDE = 8


def conv_bn_relu(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Detector(nn.Module):
    def __init__(self, num_classes: int = 10, in_channels: int = 3, width: int = 16):
        super().__init__()
        w = width
        self.backbone = nn.Sequential(
            conv_bn_relu(in_channels, w, 2),                      # 96 -> 48
            conv_bn_relu(w, 2 * w, 2), conv_bn_relu(2 * w, 2 * w),  # 48 -> 24
            conv_bn_relu(2 * w, 4 * w, 2), conv_bn_relu(4 * w, 4 * w), conv_bn_relu(4 * w, 4 * w),  # 24 -> 12
        )
        self.box_branch = nn.Sequential(conv_bn_relu(4 * w, 4 * w), nn.Conv2d(4 * w, 4, 1))
        self.cls_branch = nn.Sequential(conv_bn_relu(4 * w, 4 * w), nn.Conv2d(4 * w, num_classes, 1))
        nn.init.constant_(self.cls_branch[-1].bias, -4.6)  # prior probability 0.01 per cell and class
        nn.init.constant_(self.box_branch[-1].bias, 2.0)   # start with ~32-pixel boxes around each cell

    def forward(self, x):
        features = self.backbone(x)
        return self.box_branch(features), self.cls_branch(features)
