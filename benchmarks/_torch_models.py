"""The benchmarks' PyTorch twins of the package's models (same architecture, NCHW), for
side-by-side timings. Imported only when torch is installed."""

from __future__ import annotations

import torch
from torch import nn

SMALL_CNN_WIDTHS = (16, 32, 64, 128)


def small_cnn(num_classes: int = 2, widths=SMALL_CNN_WIDTHS) -> nn.Module:
    """Conv(3x3, no bias)-BN-ReLU blocks, 2x2 max pooling between them, global average pool,
    linear head: `nhfair_jax.models.SmallCNN`."""
    layers, c_in = [], 3
    for i, width in enumerate(widths):
        layers += [nn.Conv2d(c_in, width, 3, padding=1, bias=False), nn.BatchNorm2d(width),
                   nn.ReLU()]
        if i < len(widths) - 1:
            layers.append(nn.MaxPool2d(2))
        c_in = width
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                         nn.Linear(c_in, num_classes))


class _BasicBlock(nn.Module):
    def __init__(self, c_in: int, c_out: int, stride: int):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out)
        self.downsample = None
        if stride != 1 or c_in != c_out:
            self.downsample = nn.Sequential(nn.Conv2d(c_in, c_out, 1, stride, bias=False),
                                            nn.BatchNorm2d(c_out))

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + (x if self.downsample is None else self.downsample(x)))


def resnet18(num_classes: int = 2) -> nn.Module:
    """torchvision's ResNet-18 layout (7x7/2 stem, 3x3/2 max pool, four stages of two basic
    blocks), without depending on torchvision."""
    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
              nn.MaxPool2d(3, 2, 1)]
    c_in = 64
    for width, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        layers += [_BasicBlock(c_in, width, stride), _BasicBlock(width, width, 1)]
        c_in = width
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                         nn.Linear(512, num_classes))


def build(name: str, num_classes: int = 2) -> nn.Module:
    return {"small_cnn": small_cnn, "resnet18": resnet18}[name](num_classes)
