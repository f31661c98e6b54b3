"""Refitting the detector's last two layers (``detector_head.Head``) in numpy, on the table's frames.

The loss is the training's (``training/detector/train.py``): CenterNet's penalty-reduced focal loss on
the heatmap, per die, and L1 on each centre cell's offset and log size. Not every cell of every frame
is used: all cells near a die, the cells the shipped head already finds die-like (its mistakes), and
a random draw of the rest weighted up to stand for all of them. An L2 pull holds the weights near
the shipped ones, so a few dozen frames move the head, not throw it away. Adam, full batch.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from companion.vision.detector_head import Head, unfold
from companion.vision.numpy_fit import Adam

NEGATIVES = 300  # random far cells drawn a map (weighted to stand for all of that map's far cells)
NEAR = 0.01  # cells whose target heat is at least this are all used
SUSPECT = -3.0  # cells where the shipped head's logit is at least this (p 0.05) are all used
HARD = 9.0  # ... and their "no die" term weighs this much, away from dice (the training's 1 + --hard-weight 8)
STEPS = 250
LR = 2e-3
PULL = 0.05  # the L2 pull towards the shipped weights, against the loss per die
MINE_ROUNDS = 1  # times the refitted head's own false dice are added to the cells and it is fitted again


@dataclass
class Cells:
    """Sampled cells: their unfolded features (n x 9c), heat target, regression target and mask (where a
    centre lies), and the weight of their "no die" term."""

    cols: np.ndarray
    heat: np.ndarray
    reg: np.ndarray
    mask: np.ndarray
    weight: np.ndarray

    @staticmethod
    def join(parts: Sequence[Cells]) -> Cells:
        names = ("cols", "heat", "reg", "mask", "weight")
        return Cells(*(np.concatenate([getattr(p, k) for p in parts]) for k in names))

    @property
    def dice(self) -> float:
        return float(self.mask.sum())


def targets(dice: Sequence[tuple[float, float, float]], shape: tuple[int, int], stride: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heat (gh x gw, Gaussian peaks of 1 at die centres), regression (3 x gh x gw: dx, dy, log side /
    stride) and its mask, for dice (cx, cy, side) in input px: the training's targets."""
    gh, gw = shape
    heat = np.zeros((gh, gw), np.float32)
    reg = np.zeros((3, gh, gw), np.float32)
    mask = np.zeros((gh, gw), np.float32)
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    for cx, cy, side in dice:
        x, y = cx / stride, cy / stride
        ix, iy = int(x), int(y)
        if not (0 <= ix < gw and 0 <= iy < gh):
            continue
        sigma = max(0.6, side / stride / 6.0)
        heat = np.maximum(heat, np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma**2)))
        reg[:, iy, ix] = (x - ix, y - iy, math.log(max(side, 1.0) / stride))
        mask[iy, ix] = 1.0
    return heat, reg, mask


@dataclass(frozen=True)
class FeatureMap:
    """One read of one training frame: the features feeding the head, and its dice (cx, cy, side) in
    input px."""

    feats: np.ndarray
    dice: list[tuple[float, float, float]]
    stride: int


@dataclass
class _Plan:
    """One map's chosen cells and their targets, before their features are unfolded."""

    cells: np.ndarray
    heat: np.ndarray
    reg: np.ndarray
    mask: np.ndarray
    weight: np.ndarray


def _plan(feats: np.ndarray, dice: Sequence[tuple[float, float, float]], stride: int, suspect: np.ndarray,
          rng: np.random.Generator, negatives: int) -> _Plan:
    gh, gw = feats.shape[1:]
    heat, reg, mask = targets(dice, (gh, gw), stride)
    flat = heat.ravel()
    keep = (flat >= NEAR) | suspect.ravel()
    rest = np.flatnonzero(~keep)
    drawn = rng.choice(rest, size=min(negatives, rest.size), replace=False) if rest.size else rest
    cells = np.concatenate([np.flatnonzero(keep), drawn])
    weight = np.where(flat[cells] < NEAR, HARD, 1.0).astype(np.float32)  # what a head took for a die, away from dice
    if drawn.size:
        weight[-drawn.size:] = rest.size / drawn.size
    return _Plan(cells, flat[cells], reg.reshape(3, -1)[:, cells].T.copy(), mask.ravel()[cells], weight)


def sample(feats: np.ndarray, dice: Sequence[tuple[float, float, float]], stride: int, suspect: np.ndarray,
           rng: np.random.Generator, negatives: int = NEGATIVES) -> Cells:
    """The cells of one feature map (c x gh x gw) to fit on, for its dice (cx, cy, side; input px): all
    near a die, all ``suspect`` (gh x gw bool: where a head took the map for a die), a weighted draw of
    the rest."""
    plan = _plan(feats, dice, stride, suspect, rng, negatives)
    return Cells(unfold(feats, plan.cells), plan.heat, plan.reg, plan.mask, plan.weight)


def sample_all(maps: Sequence[FeatureMap], suspects: Sequence[np.ndarray], rng: np.random.Generator,
               negatives: int = NEGATIVES) -> Cells:
    """``Cells.join`` of :func:`sample` over the maps (the same cells, the same draws), with the features
    unfolded straight into one array: joining parts held them twice (the cells' 3x3 neighbourhoods are
    most of the teaching's memory; its peak on rune55's close-ups went from 533 to 401 MB)."""
    plans = [_plan(m.feats, m.dice, m.stride, s, rng, negatives) for m, s in zip(maps, suspects, strict=True)]
    width = 9 * maps[0].feats.shape[0] if maps else 0
    cols = np.empty((sum(p.cells.size for p in plans), width), np.float32)
    at = 0
    for m, p in zip(maps, plans, strict=True):
        for start in range(0, p.cells.size, 4096):  # a slice at a time: no whole map's copy beside it
            part = p.cells[start:start + 4096]
            cols[at:at + part.size] = unfold(m.feats, part)
            at += part.size
    names = ("heat", "reg", "mask", "weight")
    if not plans:
        return Cells(cols, *(np.zeros((0, 3) if k == "reg" else 0, np.float32) for k in names))
    return Cells(cols, *(np.concatenate([getattr(p, k) for p in plans]) for k in names))


def loss_and_grads(head: Head, cells: Cells, shipped: Head | None = None, pull: float = PULL,
                   grads: bool = True) -> tuple[float, Head | None]:
    """The training loss (focal heat per die plus L1 regression per die, plus the pull) and its gradient
    with respect to every weight of ``head``."""
    o = head.conv_w.shape[0]
    hid_pre = cells.cols @ head.conv_w.reshape(o, -1).T + head.conv_b
    hid = np.maximum(hid_pre, 0.0)
    out = hid @ head.out_w.T + head.out_b
    z = np.clip(out[:, 0], -30, 30)
    p = np.clip(1.0 / (1.0 + np.exp(-z)), 1e-4, 1 - 1e-4)
    pos = cells.heat >= 1.0
    n = max(cells.dice, 1.0)
    neg_w = np.where(pos, 0.0, cells.weight * (1 - cells.heat) ** 4)
    loss = -float(np.sum(np.log(p[pos]) * (1 - p[pos]) ** 2) + np.sum(np.log(1 - p) * p**2 * neg_w)) / n
    diff = out[:, 1:4] - cells.reg
    loss += float(np.sum(np.abs(diff) * cells.mask[:, None])) / n
    if shipped is not None:
        loss += 0.5 * pull * _distance(head, shipped)
    if not grads:
        return loss, None
    dz = np.zeros_like(p)
    dz[pos] = (1 - p[pos]) ** 2 * (2 * p[pos] * np.log(p[pos]) - (1 - p[pos]))
    dz += neg_w * p**2 * (-2 * (1 - p) * np.log(1 - p) + p)
    dout = np.zeros_like(out)
    dout[:, 0] = dz / n
    dout[:, 1:4] = np.sign(diff) * cells.mask[:, None] / n
    d_out_w = dout.T @ hid
    d_out_b = dout.sum(axis=0)
    dhid = (dout @ head.out_w) * (hid_pre > 0)
    d_conv_w = (dhid.T @ cells.cols).reshape(head.conv_w.shape)
    d_conv_b = dhid.sum(axis=0)
    g = Head(d_conv_w, d_conv_b, d_out_w, d_out_b)
    if shipped is not None:
        for name in ("conv_w", "conv_b", "out_w", "out_b"):
            getattr(g, name)[...] += pull * (getattr(head, name) - getattr(shipped, name))
    return loss, g


def _distance(a: Head, b: Head) -> float:
    return float(sum(np.sum((getattr(a, k) - getattr(b, k)) ** 2) for k in ("conv_w", "conv_b", "out_w", "out_b")))


def fit_mined(shipped: Head, maps: Sequence[FeatureMap], rng: np.random.Generator, rounds: int = MINE_ROUNDS,
              steps: int = STEPS, pull: float = PULL, conv: bool = True) -> tuple[Head, list[float], int]:
    """The head refitted on the maps' cells; after each round the cells where the refitted head now sees
    a die that is not there are added (a tray's screws, its rim) and it is fitted again. Returns the
    head, the loss at every step and the cells of the last round."""
    suspects = [shipped.apply(m.feats)[0] >= SUSPECT for m in maps]
    head, losses, n = shipped, [], 0
    for r in range(rounds + 1):
        cells = sample_all(maps, suspects, rng)
        head, run = fit(shipped, cells, steps=steps, pull=pull, conv=conv, start=head)
        losses += run
        n = int(cells.cols.shape[0])
        if r < rounds:
            suspects = [s | (head.apply(m.feats)[0] >= SUSPECT) for m, s in zip(maps, suspects, strict=True)]
    return head, losses, n


def fit(shipped: Head, cells: Cells, steps: int = STEPS, lr: float = LR, pull: float = PULL,
        conv: bool = True, start: Head | None = None) -> tuple[Head, list[float]]:
    """The head refitted on ``cells`` from ``start`` (default: the shipped weights), pulled towards the
    shipped weights (Adam, full batch); and the loss at every step. ``conv=False`` refits only the 1x1
    output layer."""
    head = (start or shipped).copy()
    adam = Adam(head, ("conv_w", "conv_b", "out_w", "out_b") if conv else ("out_w", "out_b"), lr)
    losses = []
    for _ in range(steps):
        loss, g = loss_and_grads(head, cells, shipped, pull)
        assert g is not None
        losses.append(loss)
        adam.step(head, g)
    losses.append(loss_and_grads(head, cells, shipped, pull, grads=False)[0])
    return head, losses
