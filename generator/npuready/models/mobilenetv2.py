"""A small MobileNetV2-style net (Sandler et al. 2018): inverted residuals, depthwise 3×3, ReLU6."""
from __future__ import annotations

from torch import nn

# (expansion t, output channels c, repeats n, first stride s) for a 28×28 input.
SMALL_CONFIG: tuple[tuple[int, int, int, int], ...] = (
    (1, 16, 1, 1),
    (4, 24, 2, 2),   # 28 -> 14
    (4, 32, 2, 2),   # 14 -> 7
    (4, 64, 2, 1),
)


def conv_bn_relu6(cin: int, cout: int, kernel: int, stride: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU6(inplace=True))


class InvertedResidual(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int, expansion: int):
        super().__init__()
        hidden = cin * expansion
        layers: list[nn.Module] = []
        if expansion != 1:
            layers.append(conv_bn_relu6(cin, hidden, 1))
        layers += [conv_bn_relu6(hidden, hidden, 3, stride, groups=hidden),
                   nn.Conv2d(hidden, cout, 1, bias=False), nn.BatchNorm2d(cout)]
        self.block = nn.Sequential(*layers)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        out = self.block(x)
        return x + out if self.residual else out


class MobileNetV2Small(nn.Module):
    def __init__(self, num_classes: int = 10, in_channels: int = 1, stem: int = 16, last: int = 256,
                 config: tuple[tuple[int, int, int, int], ...] = SMALL_CONFIG):
        super().__init__()
        layers: list[nn.Module] = [conv_bn_relu6(in_channels, stem, 3)]
        cin = stem
        for t, c, n, s in config:
            for i in range(n):
                layers.append(InvertedResidual(cin, c, s if i == 0 else 1, t))
                cin = c
        layers.append(conv_bn_relu6(cin, last, 1))
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.dropout = nn.Dropout(0.1)
        self.fc = nn.Linear(last, num_classes)

    def forward(self, x):
        x = self.pool(self.features(x)).flatten(1)
        return self.fc(self.dropout(x))
