"""The detector network: a small fully convolutional net with a CenterNet-style output.

At stride 4 of its square input it gives, per cell, a die-centre logit (heatmap), where in the cell
the centre lies (dx, dy, 0-1) and log(die side / 4 px). Plain 3x3 convolutions, batch norm (folded
into the convolutions on export), ReLU and nearest upsampling, all of which ``cv2.dnn`` runs.
Written here (MIT, the project's licence), trained from scratch.
"""

from __future__ import annotations

import torch
from torch import nn

STRIDE = 4


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def _pointwise(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class DieNet(nn.Module):
    """Input n x 3 x S x S (standardised BGR, S a multiple of 16); outputs n x 4 x S/4 x S/4:
    heatmap logit, dx, dy, log size."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = _conv(3, 16, 2)
        self.s4 = _conv(16, 32, 2)
        self.s8 = nn.Sequential(_conv(32, 48, 2), _conv(48, 48))
        self.s16 = nn.Sequential(_conv(48, 64, 2), _conv(64, 64), _conv(64, 64))
        self.up8 = nn.Sequential(_pointwise(64 + 48, 48), _conv(48, 48))
        self.up4 = nn.Sequential(_pointwise(48 + 32, 24), _conv(24, 24))
        self.head = nn.Conv2d(24, 4, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0  # few cells are centres: start the heatmap low

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        u8 = self.up8(torch.cat([self.up(f16), f8], 1))
        u4 = self.up4(torch.cat([self.up(u8), f4], 1))
        out: torch.Tensor = self.head(u4)
        return out
