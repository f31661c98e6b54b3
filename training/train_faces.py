"""Train the small face classifier and export it to ONNX for ``cv2.dnn``.

    .venv/bin/pip install torch==2.13.0 onnx      # training only (the ``train`` extra)
    .venv/bin/python training/make_patches.py --out /tmp/dice_patches.npz
    .venv/bin/python training/train_faces.py --patches /tmp/dice_patches.npz

Writes ``companion/vision/models/faces.onnx`` (outputs ``logits`` and a 96-d ``embedding`` that the
profile's nearest-neighbour search uses) and ``faces.json`` (class names, patch size, the softmax
temperature fitted on a validation part of the patches). Augmentations that matter: random channel
order and grey conversion, so that no die colour is special; brightness and contrast, for dim light.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "companion" / "vision" / "models"
CLASSES = ["1", "2", "3", "4", "5", "6", "worm", "none"]


class FaceNet(nn.Module):
    def __init__(self, width: int = 24) -> None:
        super().__init__()

        def block(cin: int, cout: int) -> nn.Sequential:
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())

        self.features = nn.Sequential(
            block(3, width), nn.MaxPool2d(2),  # 16
            block(width, 2 * width), nn.MaxPool2d(2),  # 8
            block(2 * width, 4 * width), nn.MaxPool2d(2),  # 4
            block(4 * width, 4 * width),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(4 * width, len(CLASSES))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        # Per-patch standardisation: dim light and pale pips look like bright light and dark pips.
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        std = ((x - mean) ** 2).mean(dim=(1, 2, 3), keepdim=True).sqrt()
        x = (x - mean) / (std + 0.02)
        emb = self.features(x)
        return self.head(emb), emb


def augment(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    n = x.shape[0]
    perm = torch.stack([torch.randperm(3, generator=g) for _ in range(n)])
    x = torch.gather(x, 1, perm[:, :, None, None].expand_as(x))
    grey = torch.rand(n, generator=g) < 0.2
    x[grey] = x[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    contrast = 0.6 + 0.8 * torch.rand(n, 1, 1, 1, generator=g)
    bright = (torch.rand(n, 1, 1, 1, generator=g) - 0.5) * 0.4
    x = (x - 0.5) * contrast + 0.5 + bright
    k = int(torch.randint(0, 4, (1,), generator=g))
    x = torch.rot90(x, k, dims=(2, 3))
    if torch.rand(1, generator=g) < 0.5:
        x = torch.flip(x, dims=(3,))
    x = x + 0.02 * torch.randn(x.shape, generator=g)
    return x


def fit_temperature(logits: torch.Tensor, y: torch.Tensor) -> float:
    best, best_nll = 1.0, float("inf")
    for t in np.linspace(0.5, 3.0, 26):
        nll = float(nn.functional.cross_entropy(logits / float(t), y))
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--patches", default="/tmp/dice_patches.npz")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--out", default=str(MODELS / "faces.onnx"))
    args = ap.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(2)
    data = np.load(args.patches)
    x = torch.from_numpy(data["x"]).permute(0, 3, 1, 2).float() / 255.0  # BGR, as cv2.dnn feeds it
    y = torch.from_numpy(data["y"])
    rng = np.random.default_rng(0)
    order = rng.permutation(len(y))
    n_val = len(y) // 10
    val, tr = order[:n_val], order[n_val:]
    model = FaceNet()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = args.epochs * (len(tr) // 128 + 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    g = torch.Generator().manual_seed(0)
    for epoch in range(args.epochs):
        t0 = time.time()
        model.train()
        perm = torch.from_numpy(rng.permutation(tr))
        total = 0.0
        for i in range(0, len(perm), 128):
            idx = perm[i : i + 128]
            logits, _ = model(augment(x[idx].clone(), g))
            loss = nn.functional.cross_entropy(logits, y[idx], label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        model.eval()
        with torch.no_grad():
            vlogits, _ = model(x[val])
        acc = float((vlogits.argmax(1) == y[val]).float().mean())
        print(f"epoch {epoch} loss {total / len(tr):.4f} val acc {acc:.4f} ({time.time() - t0:.0f}s)", flush=True)
    temperature = fit_temperature(vlogits, y[val])
    print("temperature", temperature)
    model.eval()
    torch.onnx.export(model, (torch.zeros(1, 3, 32, 32),), args.out, input_names=["patch"],
                      output_names=["logits", "embedding"], dynamic_axes={"patch": {0: "n"}},
                      opset_version=17, dynamo=False)
    head = {"weight": model.head.weight.detach().numpy().round(6).tolist(),
            "bias": model.head.bias.detach().numpy().round(6).tolist()}
    meta = {"classes": CLASSES, "patch": 32, "temperature": temperature, "input": "BGR/255", "head": head,
            "val_accuracy": acc, "trained_on": "training/make_patches.py over the 'train' photos of split.json"}
    Path(args.out).with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")


if __name__ == "__main__":
    main()
