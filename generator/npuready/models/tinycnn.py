"""Tiny CNN for the quickstart: three 3×3 conv blocks and one Gemm, trains in about a minute."""
from __future__ import annotations

from torch import nn


class TinyCNN(nn.Module):
    def __init__(self, num_classes: int = 10, in_channels: int = 1, width: int = 16):
        super().__init__()

        def block(cin: int, cout: int) -> list[nn.Module]:
            return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

        self.features = nn.Sequential(
            *block(in_channels, width), nn.MaxPool2d(2),          # 28 -> 14
            *block(width, 2 * width), nn.MaxPool2d(2),            # 14 -> 7
            *block(2 * width, 4 * width),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(4 * width * 7 * 7, num_classes))

    def forward(self, x):
        return self.classifier(self.features(x))
