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
SLIM_WIDTHS = (16, 24, 40, 64, 32, 16)  # with no second convolution at stride 8: ``slim()``
WIDE_WIDTHS = (16, 32, 64, 96, 64, 24)  # more channels at strides 8 and 16: ``wide()``


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def _pointwise(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class DieNet(nn.Module):
    """Input n x 3 x S x S (standardised BGR, S a multiple of 16); outputs n x 4 x S/4 x S/4:
    heatmap logit, dx, dy, log size.

    ``widths``: channels at strides 2, 4, 8 and 16 and of the two upsampling stages; ``deep8``: a
    second convolution at stride 8; ``deep32``: a stage at stride 32. The defaults are the shipped
    network; ``slim()`` has about half its multiply-adds (the reader's time:
    ``docs/log/speed-2026-11-27.md``)."""

    def __init__(self, widths: tuple[int, int, int, int, int, int] = (16, 32, 48, 64, 48, 24),
                 deep8: bool = True, deep32: bool = False) -> None:
        super().__init__()
        c2, c4, c8, c16, u8, u4 = widths
        # ``deep32``: two convolutions at stride 32 added back onto stride 16, so that a cell sees about
        # 200 px of the input, not 111: a close-up's die can be half the frame (S then a multiple of 32)
        self.s32 = nn.Sequential(_conv(c16, c16, 2), _conv(c16, c16)) if deep32 else None
        self.s2 = _conv(3, c2, 2)
        self.s4 = _conv(c2, c4, 2)
        self.s8 = nn.Sequential(_conv(c4, c8, 2), _conv(c8, c8)) if deep8 else nn.Sequential(_conv(c4, c8, 2))
        self.s16 = nn.Sequential(_conv(c8, c16, 2), _conv(c16, c16), _conv(c16, c16))
        self.up8 = nn.Sequential(_pointwise(c16 + c8, u8), _conv(u8, u8))
        self.up4 = nn.Sequential(_pointwise(u8 + c4, u4), _conv(u4, u4))
        self.head = nn.Conv2d(u4, 4, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0  # few cells are centres: start the heatmap low

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        if self.s32 is not None:
            f16 = f16 + self.up(self.s32(f16))
        u8 = self.up8(torch.cat([self.up(f16), f8], 1))
        u4 = self.up4(torch.cat([self.up(u8), f4], 1))
        out: torch.Tensor = self.head(u4)
        return out


def slim() -> DieNet:
    """The slimmer network: about half the multiply-adds of the shipped one."""
    return DieNet(SLIM_WIDTHS, deep8=False)


def wide() -> DieNet:
    """A wider network at strides 8 and 16, where a die is recognised as a whole: about 1.5 times the
    shipped one's multiply-adds, at the same resolution and reach."""
    return DieNet(WIDE_WIDTHS)
