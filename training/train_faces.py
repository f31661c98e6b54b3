"""Train the small face classifier and export it to ONNX for ``cv2.dnn``.

    .venv/bin/pip install torch==2.13.0 onnx      # training only (the ``train`` extra)
    .venv/bin/python training/make_patches.py --out /tmp/dice_patches.npz
    .venv/bin/python training/train_faces.py --patches /tmp/dice_patches.npz

Writes ``companion/vision/models/faces.onnx`` (outputs ``logits``, the 96-d ``embedding`` on which a
profile retrains the last layer, and ``offset``: where the die's top face is relative to the window, in
window sides, and log(die side / window side)) and ``faces.json``
(class names, patch size, the softmax temperature fitted on a validation part of the patches).
Augmentations that matter: random channel order and grey conversion, so that no die colour is special;
brightness and contrast, for dim light.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from training/
    sys.path.insert(0, str(ROOT))
from training.sources import BY_NUMBER, RUNE55_CREDIT, SOURCES  # noqa: E402

MODELS = ROOT / "companion" / "vision" / "models"
CLASSES = ["1", "2", "3", "4", "5", "6", "worm", "none", "side"]
OFFSET_WEIGHT = 4.0


class FaceNet(nn.Module):
    """A few hundred microseconds a patch on one core; the time goes mostly into the second and third
    convolutions, so ``widths`` (channels of the four convolutions) sets the speed. ``stride`` 2 in the
    first convolution halves the time again, at a cost on small dice whose pips are a few pixels wide."""

    def __init__(self, widths: tuple[int, int, int, int] = (24, 48, 96, 96), stride: int = 1,
                 strided_middle: bool = False) -> None:
        super().__init__()

        def block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
            return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
                                 nn.BatchNorm2d(cout), nn.ReLU())

        w1, w2, w3, w4 = widths
        first: list[nn.Module] = [block(3, w1, stride)] + ([] if stride > 1 else [nn.MaxPool2d(2)])
        # ``strided_middle``: the second and third convolutions step by 2 instead of being pooled after,
        # so that they run at a quarter of the positions and the pooling layers go.
        middle: list[nn.Module] = ([block(w1, w2, 2), block(w2, w3, 2)] if strided_middle else
                                   [block(w1, w2), nn.MaxPool2d(2), block(w2, w3), nn.MaxPool2d(2)])
        self.features = nn.Sequential(
            *first,  # 16
            *middle,  # 8, then 4
            block(w3, w4),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(w4, len(CLASSES))
        self.offset = nn.Linear(w4, 3)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return self.core(standardise(x))

    def core(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The exported part: the reader standardises patches itself (``classifier.standardise``)."""
        emb = self.features(x)
        return self.head(emb), emb, self.offset(emb)


class Core(nn.Module):
    def __init__(self, net: FaceNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return self.net.core(x)


def standardise(x: torch.Tensor) -> torch.Tensor:
    """Per-patch standardisation: dim light and pale pips look like bright light and dark pips."""
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    std = ((x - mean) ** 2).mean(dim=(1, 2, 3), keepdim=True).sqrt()
    return (x - mean) / (std + 0.02)


def recolour(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Each channel mapped by its own random line, lo + (hi - lo) * value: a white die with black pips
    becomes a die of any colour with pips of any other, keeping the real photo's shapes, blur and
    shading. At least one channel keeps a clear difference, so that the face stays readable."""
    n = x.shape[0]
    lo = torch.rand(n, 3, 1, 1, generator=g)
    span = torch.rand(n, 3, 1, 1, generator=g) - lo
    widest = span.abs().amax(dim=1, keepdim=True)
    span = span * torch.clamp(0.4 / (widest + 1e-6), min=1.0)
    return lo + span * x


def dimmed(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Patches as a dim room leaves them after the reader's exposure step (``vision/exposure.py``): the
    camera's 8 bits spread over a fraction of their range, with its noise, and scaled back up. Per-patch
    standardisation takes care of the darkness; the coarse steps and the noise are what remain."""
    n = x.shape[0]
    light = 0.3 + 0.4 * torch.rand(n, 1, 1, 1, generator=g)
    noise = torch.rand(n, 1, 1, 1, generator=g) * 1.5 * torch.randn(x.shape, generator=g)
    return (torch.floor((x * 255.0 * light + noise).clamp(0, 255)) / (255.0 * light)).clamp(0, 1)


def _middle(n: int) -> torch.Tensor:
    """1 over the middle 60% of a side of n pixels, fading to 0 at 90%: the die, not the tray around it."""
    from_centre = (torch.arange(n, dtype=torch.float32) - (n - 1) / 2).abs()
    return torch.clamp((0.45 * n - from_centre) / (0.15 * n), 0, 1)


def ghosted(x: torch.Tensor, g: torch.Generator, donors: torch.Tensor | None = None) -> torch.Tensor:
    """Patches as a translucent die shows them: another die's pips (a patch of ``donors``, by default of
    ``x``) seen through the body, turned, shifted a few pixels, blurred and fainter than the top face's
    (smoky dice with red pips, casino dice). Only the middle of the patch, where the die is, takes the
    ghost; the class stays the top face's, which is the sharp one."""
    n, _, h, w = x.shape
    pool = x if donors is None else donors
    donor = pool[torch.randint(0, len(pool), (n,), generator=g)]
    donor = torch.rot90(donor, int(torch.randint(0, 4, (1,), generator=g)), dims=(2, 3))
    if torch.rand(1, generator=g) < 0.5:
        donor = torch.flip(donor, dims=(3,))
    for _ in range(2):  # about a 1.2 px Gaussian
        donor = nn.functional.avg_pool2d(donor, 3, stride=1, padding=1, count_include_pad=False)
    dy, dx = (int(v) for v in torch.randint(-3, 4, (2,), generator=g))
    donor = torch.roll(donor, shifts=(dy, dx), dims=(2, 3))
    delta = donor - donor.mean(dim=(1, 2, 3), keepdim=True)
    mask = (_middle(h)[:, None] * _middle(w)[None, :])[None, None]
    strength = 0.2 + 0.3 * torch.rand(n, 1, 1, 1, generator=g)
    return torch.clamp(x + strength * delta * mask, 0, 1)


def augment(x: torch.Tensor, off: torch.Tensor, g: torch.Generator, invert: float = 0.0, blur: float = 0.0,
            recolour_share: float = 0.0, dim: float = 0.0, ghost: float = 0.0,
            faces: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """``faces``: which patches show a top face; with ``ghost``, only those are seen through, and only
    their pips show through (with every patch seen through, a left-out tray lost 20 more dice:
    docs/log/ghost-pips-2026-11-28.md)."""
    n = x.shape[0]
    if ghost > 0:  # (no draws from g without it: the default training stays as it was)
        see_through = torch.rand(n, generator=g) < ghost
        if faces is not None:
            see_through &= faces
        if bool(see_through.any()):
            x[see_through] = ghosted(x[see_through], g, None if faces is None else x[faces])
    if dim > 0:  # (no draws from g without it: the default training stays as it was)
        dark = torch.rand(n, generator=g) < dim
        if bool(dark.any()):
            x[dark] = dimmed(x[dark], g)
    if recolour_share > 0:  # (no draws from g without it: the default training stays as it was)
        rc = torch.rand(n, generator=g) < recolour_share
        if bool(rc.any()):
            x[rc] = recolour(x[rc], g)
    # Small, soft dice: a share of the patches is shrunk and enlarged again, as a die of 15-25 px
    # (or one slightly out of focus) looks once cut to 32x32.
    soft = torch.rand(n, generator=g) < blur if blur > 0 else torch.zeros(n, dtype=torch.bool)
    if bool(soft.any()):  # (no draws from g without blur: the default training stays as it was)
        side = int(torch.randint(14, 26, (1,), generator=g))
        small = nn.functional.interpolate(x[soft], size=(side, side), mode="bilinear", antialias=True)
        x[soft] = nn.functional.interpolate(small, size=x.shape[2:], mode="bilinear")
    # A negative turns white dice with black pips into black dice with white pips, dark dice with
    # red pips into pale ones with cyan pips: die and pip colours the photos have too few of.
    neg = torch.rand(n, generator=g) < invert
    x[neg] = 1.0 - x[neg]
    perm = torch.stack([torch.randperm(3, generator=g) for _ in range(n)])
    x = torch.gather(x, 1, perm[:, :, None, None].expand_as(x))
    grey = torch.rand(n, generator=g) < 0.2
    x[grey] = x[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    contrast = 0.6 + 0.8 * torch.rand(n, 1, 1, 1, generator=g)
    bright = (torch.rand(n, 1, 1, 1, generator=g) - 0.5) * 0.4
    x = (x - 0.5) * contrast + 0.5 + bright
    off = off.clone()
    # Rotations and mirror images move the top face's offset with the picture: (dx, dy) -> (dy, -dx)
    # for each quarter turn of torch.rot90 over (rows, columns), dx -> -dx for a left-right flip.
    for _ in range(int(torch.randint(0, 4, (1,), generator=g))):
        x = torch.rot90(x, 1, dims=(2, 3))
        off[:, :2] = torch.stack([off[:, 1], -off[:, 0]], dim=1)
    if torch.rand(1, generator=g) < 0.5:
        x = torch.flip(x, dims=(3,))
        off[:, 0] = -off[:, 0]
    x = x + 0.02 * torch.randn(x.shape, generator=g)
    return x, off


def class_loss(logits: torch.Tensor, y: torch.Tensor, focal: float = 0.0) -> torch.Tensor:
    """Mean cross-entropy over the patches with a class (-1: none to learn); ``focal`` down-weights
    patches the network already gets right."""
    each = nn.functional.cross_entropy(logits, y, label_smoothing=0.02, ignore_index=-1, reduction="none")
    if focal > 0:
        each = each * (1 - torch.exp(-each.detach())) ** focal
    known = y >= 0
    return each[known].sum() / max(int(known.sum()), 1)


def fit_temperature(logits: torch.Tensor, y: torch.Tensor) -> float:
    best, best_nll = 1.0, float("inf")
    for t in np.linspace(0.5, 3.0, 26):
        nll = float(nn.functional.cross_entropy(logits / float(t), y))
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def provenance(src: np.ndarray, args: argparse.Namespace, seconds: float) -> dict[str, object]:
    """What the model learnt from (patches per source, their licences, the rune55 credit when it is among
    them) and how: the command, the split's hash, the training time."""
    counts = np.bincount(src, minlength=len(SOURCES))
    sources = {BY_NUMBER[i]: {"patches": int(n), "licence": SOURCES[BY_NUMBER[i]][1]}
               for i, n in enumerate(counts) if n}
    out: dict[str, object] = {"sources": sources}
    if "rune55-gray-closeups" in sources:
        out["credit"] = RUNE55_CREDIT
    split = ROOT / "companion" / "vision" / "split.json"
    out["split_sha256"] = hashlib.sha256(split.read_bytes()).hexdigest()
    words = []
    for k, v in vars(args).items():
        if k in ("out", "patches") or v in ([], None, False):
            continue
        words.append(f"--{k.replace('_', '-')}" + ("" if v is True else " " + " ".join(map(str, np.atleast_1d(v)))))
    out["command"] = "nice -n 19 .venv-train/bin/python training/train_faces.py " + " ".join(words)
    out["train_seconds"] = round(seconds)
    return out


def parse_share(text: str) -> tuple[int, float]:
    """``"3:0.5"`` -> (3, 0.5)."""
    number, share = text.split(":")
    return int(number), float(share)


def subsample(src: np.ndarray, shares: dict[int, float], seed: int) -> np.ndarray:
    """A mask keeping a random ``shares[s]`` of source ``s``'s patches and every patch of other sources."""
    rng = np.random.default_rng(seed + 1)  # its own draws: the training's stay as they were
    keep = np.ones(len(src), bool)
    for number, share in shares.items():
        rows = np.flatnonzero(src == number)
        drop = rng.choice(rows, len(rows) - round(share * len(rows)), replace=False)
        keep[drop] = False
    return keep


def repeat(rows: np.ndarray, src: np.ndarray, times: dict[int, int]) -> np.ndarray:
    """Training rows with each row of source ``s`` listed ``times[s]`` times, so a source that the newer
    sets outnumber weighs as before. Applied after the validation split: no copy of a validation patch
    is trained on, and the temperature is fitted on patches the network never saw."""
    counts = np.ones(len(rows), int)
    for number, n in times.items():
        counts[src[rows] == number] = n
    return np.repeat(rows, counts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--patches", default="/tmp/dice_patches.npz")
    ap.add_argument("--epochs", type=int, default=22)
    ap.add_argument("--widths", default="24,48,96,96", help="channels of the four convolutions")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--stride", type=int, default=1)
    ap.add_argument("--strided-middle", action="store_true",
                    help="second and third convolutions with stride 2 instead of max pooling (faster)")
    ap.add_argument("--invert", type=float, default=0.3, help="share of patches turned into negatives")
    ap.add_argument("--blur", type=float, default=0.0, help="share of patches shrunk and enlarged again")
    ap.add_argument("--recolour", type=float, default=0.0,
                    help="share of patches whose channels are each mapped by a random line (any die colour)")
    ap.add_argument("--dim", type=float, default=0.0,
                    help="share of patches seen as in a dim room: coarse 8-bit steps and noise, brightened again")
    ap.add_argument("--ghost", type=float, default=0.0,
                    help="share of face patches given another face's pips, faint and blurred (a translucent die)")
    ap.add_argument("--focal", type=float, default=0.0, help="focal-loss exponent: weight on hard patches")
    ap.add_argument("--mixup", type=float, default=0.0, metavar="ALPHA",
                    help="blend each batch with itself shuffled, by a Beta(ALPHA, ALPHA) share, and the "
                         "classes likewise (0: off)")
    ap.add_argument("--drop-source", type=int, nargs="*", default=[],
                    help="leave out patches of these sources (make_patches.py: 0 nell-byler-d6, "
                         "1 matteop65-webcam, 2 rendered), to measure the reader on dice it never saw")
    ap.add_argument("--subsample", nargs="*", default=[], metavar="SOURCE:SHARE",
                    help="keep only this share of a source's patches, e.g. 3:0.5 (rune55 outnumbered the webcam "
                         "set and weighed the older sets down: docs/log/classifier-new-sets-2026-11-27.md)")
    ap.add_argument("--repeat", nargs="*", default=[], metavar="SOURCE:TIMES",
                    help="train on a source's patches this many times an epoch, e.g. 1:2 (the webcam set, "
                         "docs/log/classifier-round-4-2026-11-27.md)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(MODELS / "faces.onnx"))
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    data = np.load(args.patches)
    x = torch.from_numpy(data["x"]).permute(0, 3, 1, 2).float() / 255.0  # BGR, as cv2.dnn feeds it
    y = torch.from_numpy(data["y"])
    off = torch.from_numpy(data["off"])
    has_off = torch.from_numpy(data["has_off"])
    src = data["src"]
    kept = ~np.isin(src, args.drop_source) & subsample(src, dict(parse_share(v) for v in args.subsample), args.seed)
    if not kept.all():
        keep = torch.from_numpy(kept)
        x, y, off, has_off, src = x[keep], y[keep], off[keep], has_off[keep], src[kept]
    started = time.time()
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(y))
    n_val = len(y) // 10
    val, tr = order[:n_val], order[n_val:]
    tr = repeat(tr, src, {n: round(t) for n, t in (parse_share(v) for v in args.repeat)})
    w1, w2, w3, w4 = (int(v) for v in args.widths.split(","))
    model = FaceNet((w1, w2, w3, w4), args.stride, args.strided_middle)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = args.epochs * (len(tr) // 128 + 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    g = torch.Generator().manual_seed(args.seed)
    mix_g = torch.Generator().manual_seed(args.seed + 1)  # its own draws: without --mixup nothing changes
    beta = torch.distributions.Beta(args.mixup, args.mixup) if args.mixup > 0 else None
    for epoch in range(args.epochs):
        t0 = time.time()
        model.train()
        perm = torch.from_numpy(rng.permutation(tr))
        total = 0.0
        for i in range(0, len(perm), 128):
            idx = perm[i : i + 128]
            xa, oa = augment(x[idx].clone(), off[idx], g, args.invert, args.blur, args.recolour, args.dim,
                             args.ghost, (y[idx] >= 0) & (y[idx] < 6))
            yb, lam = y[idx], 1.0
            if beta is not None:
                lam = max(float(beta.sample()), 0.5)  # the batch's own patches stay the larger part
                other = torch.randperm(len(idx), generator=mix_g)
                xa = lam * xa + (1 - lam) * xa[other]
            logits, _, pred = model(xa)
            loss = lam * class_loss(logits, yb, args.focal)
            if beta is not None:  # the blended-in patches' classes, by their share
                loss = loss + (1 - lam) * class_loss(logits, yb[other], args.focal)
            m = has_off[idx]
            if bool(m.any()):  # where the top face is: the batch's own patches' (the larger part)
                loss = loss + OFFSET_WEIGHT * nn.functional.smooth_l1_loss(pred[m], oa[m], beta=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        model.eval()
        with torch.no_grad():
            vlogits, _, vpred = model(x[val])
        known = y[val] >= 0
        acc = float((vlogits.argmax(1) == y[val])[known].float().mean())
        vm = has_off[val]
        err = float((vpred[vm, :2] - off[val][vm, :2]).norm(dim=1).median())
        print(f"epoch {epoch} loss {total / len(tr):.4f} val acc {acc:.4f} offset err {err:.3f}"
              f" ({time.time() - t0:.0f}s)", flush=True)
    temperature = fit_temperature(vlogits[known], y[val][known])
    print("temperature", temperature)
    model.eval()
    torch.onnx.export(Core(model), (torch.zeros(1, 3, 32, 32),), args.out, input_names=["patch"],
                      output_names=["logits", "embedding", "offset"], dynamic_axes={"patch": {0: "n"}},
                      opset_version=17, dynamo=False)
    head = {"weight": model.head.weight.detach().numpy().round(6).tolist(),
            "bias": model.head.bias.detach().numpy().round(6).tolist()}
    meta = {"classes": CLASSES, "patch": 32, "outputs": ["logits", "embedding", "offset"],
            "temperature": temperature, "input": "BGR/255, standardised per patch", "standardised": True,
            "head": head,
            "val_accuracy": acc, "trained_on": "training/make_patches.py over the 'train' photos of split.json"}
    meta |= provenance(src, args, time.time() - started)
    Path(args.out).with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")


if __name__ == "__main__":
    main()
