"""Train the die detector from scratch and export it to ONNX for ``cv2.dnn``.

    .venv/bin/pip install torch==2.13.0 onnx          # training only
    nice -n 10 .venv/bin/python -m training.detector.train --out companion/vision/models

Trains on the 'fit' photos of every real set (``data.parts``) plus rendered trays, under strong
augmentation; picks the heatmap threshold on the 'dev' photos; never reads the held-back photos.
``--without SET`` leaves one whole set out (the leave-one-source-out run; score it with
``benchmarks/vision_detection.py --detector``). ``--all-train T`` trains (and mines) on the dev
photos too, as the face classifier does once its settings are chosen, and keeps the threshold T
chosen before: the dev photos can then choose nothing. One thread, a fixed number of steps and a
fixed seed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812

from companion.vision.detection_score import DetectionScore
from companion.vision.detector import DieDetector
from companion.vision.evaluate import LabelledDie
from training.detector.data import (
    SETS,
    SPLIT,
    Photo,
    augment_all,
    data_root,
    hard_weights,
    load_photos,
    load_scenes,
    mosaic,
    parts,
    render_tray,
    targets,
    tiled,
    to_input,
)
from training.detector.model import STRIDE, DieNet, slim, wide
from training.detector.paste import DiePatch, cut_patches, paste

# How often each source is drawn (rendered trays, then the real sets); chase crops come as mosaics.
MIX = {"rendered": 0.3, "nell-byler-d6": 0.17, "matteop65-webcam": 0.15, "rune55-gray-closeups": 0.2,
       "chase-casino-crops": 0.18}
THRESHOLDS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)


def focal(pred: torch.Tensor, heat: torch.Tensor, weight: torch.Tensor | None = None) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, per positive; ``weight`` weighs each cell's "no die"
    term (hard negatives count more)."""
    p = torch.sigmoid(pred).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p**2 * (1 - heat) ** 4 * neg
    if weight is not None:
        neg_loss = neg_loss * weight
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def training_stems(name: str, all_train: bool) -> list[str]:
    """The photos a run trains and mines on: the fit part, and with ``--all-train`` the dev part too."""
    p = parts(name)
    return list(p["fit"]) + (list(p["dev"]) if all_train else [])


def mine(detector: DieDetector, pools: dict[str, list[Photo]], threshold: float) -> dict[str, int]:
    """Hard negatives: on every training photo (the fit photos; with ``--all-train`` the dev photos too),
    the detections of ``detector`` at least ``threshold`` whose centre lies on no labelled die (tray
    screws, desk clutter). Held-back photos are never mined. Returns how many per set."""
    counts = {}
    for name, photos in pools.items():
        n = 0
        for ph in photos:
            rows = []
            for d in detector.detect(ph.image, threshold=threshold):
                near = [np.hypot(d.cx - cx, d.cy - cy) < 0.6 * s for cx, cy, s in ph.dice]
                if not any(near):
                    rows.append((d.cx, d.cy, d.size))
            ph.negatives = np.array(rows, np.float32).reshape(-1, 3)
            n += len(rows)
        counts[name] = n
    return counts


# px at the network's input: the smallest median die a tiling may leave (nell-byler-d6's 10th percentile)
TILE_SIDE = 11.0
MAX_TILE = 8


def _max_tile(pool: list[Photo], size: int) -> int:
    """The largest k for which k x k photos of ``pool`` in one input leave its median die TILE_SIDE px
    wide (chase's crops: a die fills its crop)."""
    sides = [float(np.median(p.dice[:, 2])) / max(p.image.shape[:2]) for p in pool if len(p.dice)]
    if not sides:
        return 1
    return int(min(MAX_TILE, float(np.median(sides)) * size / TILE_SIDE))


class Sampler:
    def __init__(self, pools: dict[str, list[Photo]], rendered: list[Photo], size: int, seed: int,
                 hard_weight: float = 0.0, hard_share: float = 0.0, paste_share: float = 0.0,
                 tile_share: float = 0.0, zoom: float = 0.0, scenes: list[Photo] | None = None,
                 scene_share: float = 0.0, scenes_for_rendered: bool = False,
                 scene_die_px: tuple[float, float] | None = None) -> None:
        self.pools = pools
        self.rendered = rendered
        self.size = size
        self.rng = np.random.default_rng(seed)
        self.hard_weight = hard_weight
        self.hard_share = hard_share  # of a real set's draws, this share from photos with hard negatives
        self.hard = {n: [p for p in pool if len(p.negatives)] for n, pool in pools.items()}
        # real dice to paste onto other sources' photos and onto rendered felt (``paste.py``)
        self.paste_share = paste_share
        # of a real set's photo draws, this share tiled k x k (``tiled``; chase's crops: ``mosaic``), with
        # k up to what leaves the set's median die TILE_SIDE px wide at the input
        self.tile_share = tile_share
        self.zoom = zoom  # share of draws enlarged 1.6-3 times (``augment_all``)
        self.max_tile = {n: _max_tile(pool, size) for n, pool in pools.items()}
        self.patches: dict[str, list[DiePatch]] = (
            {n: cut_patches(pool) for n, pool in pools.items()} if paste_share else {})
        names = ["rendered"] + [n for n in pools if pools[n]]
        w = np.array([MIX[n] for n in names])
        w = w / w.sum()
        # physically rendered trays (``training/scenes``): this share of all draws, the rest as before
        self.scenes = scenes or []
        self.scene_die_px = scene_die_px  # generated trays scaled to this die width (``augment_all``)
        if self.scenes and scene_share > 0:
            if scenes_for_rendered:  # taken from the 2D renders' share only: the real sets keep theirs
                taken = min(scene_share, float(w[0]))
                w = w.copy()
                w[0] -= taken
                names, w = names + ["scenes"], np.append(w, taken)
            else:
                names, w = names + ["scenes"], np.append(w * (1 - scene_share), scene_share)
        self.names, self.weights = names, w / w.sum()

    def photo(self) -> Photo:
        ph = self._drawn()
        if self.paste_share and ph.stem != "mosaic" and self.rng.random() < self.paste_share:
            # dice of another source than the photo's
            donors = [n for n, p in self.patches.items() if p and n != ph.name]
            if donors:
                donor = self.patches[donors[int(self.rng.integers(len(donors)))]]
                ph = paste(self.rng, ph, donor, int(self.rng.integers(1, 6)))
        return ph

    def _drawn(self) -> Photo:
        name = self.names[int(self.rng.choice(len(self.names), p=self.weights))]
        if name == "rendered":
            return self.rendered[int(self.rng.integers(len(self.rendered)))]
        if name == "scenes":
            return self.scenes[int(self.rng.integers(len(self.scenes)))]
        pool = self.pools[name]
        big = self.max_tile[name]
        tile = big >= 2 and self.tile_share > 0 and self.rng.random() < self.tile_share
        if name == "chase-casino-crops" and self.rng.random() < 0.85:
            return mosaic(self.rng, pool, k=int(self.rng.integers(5, big + 1)) if tile and big >= 5 else None)
        if tile:
            return tiled(self.rng, pool, int(self.rng.integers(2, big + 1)))
        hard = self.hard[name]
        if hard and self.hard_share > 0 and self.rng.random() < self.hard_share:
            return hard[int(self.rng.integers(len(hard)))]
        return pool[int(self.rng.integers(len(pool)))]

    def batch(self, n: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        xs, hs, rs, ms, ws = [], [], [], [], []
        for _ in range(n):
            ph = self.photo()
            die_px = self.scene_die_px if ph.name == "scenes" else None
            img, dice, negs = augment_all(self.rng, ph, self.size, self.zoom, die_px)
            h, r, m = targets(dice, self.size, STRIDE)
            xs.append(to_input(img))
            hs.append(h)
            rs.append(r)
            ms.append(m)
            ws.append(hard_weights(negs, h, STRIDE, self.hard_weight))
        return (torch.from_numpy(np.stack(xs)), torch.from_numpy(np.stack(hs)), torch.from_numpy(np.stack(rs)),
                torch.from_numpy(np.stack(ms)), torch.from_numpy(np.stack(ws)))


def export(model: DieNet, out: Path, size: int, meta: dict[str, object]) -> Path:
    model.eval()
    path = out / "dice_detector.onnx"
    torch.onnx.export(model, (torch.zeros(1, 3, size, size),), str(path), opset_version=11, input_names=["input"],
                      output_names=["maps"], do_constant_folding=True, dynamo=False)
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    return path


def dev_scores(detector: DieDetector, dev: dict[str, list[Photo]], thresholds: tuple[float, ...]
               ) -> dict[float, dict[str, DetectionScore]]:
    """Detection scores of the dev photos at each threshold (photos at full size)."""
    out: dict[float, dict[str, DetectionScore]] = {t: {} for t in thresholds}
    for name, photos in dev.items():
        for ph in photos:
            labels = [LabelledDie(1, (float(cx), float(cy)), float(s)) for cx, cy, s in ph.dice]
            raw, scale = detector.heatmap(ph.image)
            from companion.vision.detector import decode
            for t in thresholds:
                dets = decode(raw, detector.stride, t, scale)
                out[t].setdefault(name, DetectionScore()).add(labels, [d.box for d in dets])
    return out


def pick_threshold(detector: DieDetector, dev: dict[str, list[Photo]]
                   ) -> tuple[float, dict[float, dict[str, DetectionScore]]]:
    """The heatmap threshold of best F2 on the dev photos (each set counting alike; recall weighs four
    times precision, as a missed die costs more), and the scores at every threshold tried."""
    scores = dev_scores(detector, dev, THRESHOLDS)
    best, best_val = 0.3, -1.0
    for t in THRESHOLDS:
        per = scores[t]
        f2 = float(np.mean([5 * s.recall * s.precision / max(4 * s.precision + s.recall, 1e-9) for s in per.values()]))
        print(f"dev threshold {t}: F2 {f2:.4f}; " + "; ".join(f"{n}: {s.line()}" for n, s in per.items()), flush=True)
        if f2 > best_val:
            best, best_val = t, f2
    return best, scores


def _base_command(init: str | None) -> str | None:
    """The command that made the weights a fine-tuning started from (their JSON beside them)."""
    meta = Path(init).with_suffix(".json") if init else None
    if meta is None or not meta.exists():
        return None
    return str(json.loads(meta.read_text()).get("command"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", help="the dice photos (default ../shared/data/dice)")
    ap.add_argument("--out", default="companion/vision/models", help="where the ONNX file and its JSON go")
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--size", type=int, default=256, help="network input side, px")
    ap.add_argument("--rendered", type=int, default=500, help="rendered trays in the pool")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--without", choices=SETS, help="leave this whole set out of training (and dev)")
    ap.add_argument("--all-train", type=float, metavar="THRESHOLD",
                    help="train and mine on the fit and dev photos, with this heatmap threshold (chosen before)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--stop", type=int, help="stop after this many steps of the --steps schedule (default: all)")
    ap.add_argument("--init", help="start from these weights (a dice_detector.pt saved every 250 steps)")
    ap.add_argument("--warm", type=int, default=200, help="steps of linear learning-rate warm-up")
    ap.add_argument("--mine", nargs="?", const="shipped", metavar="DETECTOR.onnx",
                    help="mine hard negatives on the training photos with this detector (default: the shipped one)")
    ap.add_argument("--mine-threshold", type=float, default=0.2)
    ap.add_argument("--hard-weight", type=float, default=8.0, help="extra weight of a hard negative's cells")
    ap.add_argument("--hard-share", type=float, default=0.5,
                    help="share of a real set's draws taken from photos with hard negatives")
    ap.add_argument("--paste", type=float, default=0.0,
                    help="share of draws given 1-5 real dice of another source, recoloured (copy-paste)")
    ap.add_argument("--tile", type=float, default=0.0,
                    help="share of a real set's draws tiled k x k with photos of that set (its dice kept large enough)")
    ap.add_argument("--zoom", type=float, default=0.0,
                    help="share of draws enlarged 1.6-3 times (what the second read of a large frame sees)")
    ap.add_argument("--scenes", type=Path, help="a folder of trays rendered by training.scenes (images/, labels/)")
    ap.add_argument("--scene-share", type=float, default=0.3, help="with --scenes: the share of draws taken from them")
    ap.add_argument("--scene-die-px", type=float, nargs=2, metavar=("LO", "HI"),
                    help="with --scenes: scale each generated tray so its median die is LO-HI input px wide")
    ap.add_argument("--scenes-for-rendered", action="store_true",
                    help="with --scenes: take their share from the 2D rendered trays' share, not from every source's")
    ap.add_argument("--slim", action="store_true",
                    help="the slimmer network (model.slim(): about half the multiply-adds)")
    ap.add_argument("--wide", action="store_true",
                    help="the wider network (model.wide(): more channels at strides 8 and 16)")
    ap.add_argument("--deep32", action="store_true",
                    help="a stage at stride 32 (a wider view for close-ups; the input a multiple of 32)")
    ap.add_argument("--export-only", action="store_true",
                    help="with --init: export those weights and pick the threshold, no training (the recorded "
                         "command is then the one that made the weights: give it its --steps and --stop)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    root = data_root(args.data)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    names = [n for n in SETS if n != args.without]
    pools = {n: load_photos(root, n, training_stems(n, args.all_train is not None)) for n in names}
    dev = {n: load_photos(root, n, parts(n)["dev"], cache_side=None) for n in names}
    rendered = [render_tray(args.seed * 100_000 + i) for i in range(0 if args.export_only else args.rendered)]
    scenes = load_scenes(args.scenes) if args.scenes and not args.export_only else []
    print(f"data: {', '.join(f'{n} {len(p)}' for n, p in pools.items())}, rendered {len(rendered)},"
          f" scenes {len(scenes)}"
          f" ({time.time() - t0:.0f} s)", flush=True)
    mined: dict[str, int] = {}
    if args.mine:
        miner = DieDetector(None if args.mine == "shipped" else args.mine)
        mined = mine(miner, pools, args.mine_threshold)
        print(f"hard negatives (training photos, >= {args.mine_threshold}): {mined}", flush=True)
    sampler = Sampler(pools, rendered, args.size, args.seed, args.hard_weight if args.mine else 0.0,
                      args.hard_share if args.mine else 0.0, args.paste, args.tile, args.zoom, scenes, args.scene_share,
                      args.scenes_for_rendered, tuple(args.scene_die_px) if args.scene_die_px else None)
    if args.paste:
        print("patches to paste: " + ", ".join(f"{n} {len(p)}" for n, p in sampler.patches.items()), flush=True)
    model = slim() if args.slim else wide() if args.wide else DieNet(deep32=args.deep32)
    if args.init:
        model.load_state_dict(torch.load(args.init))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    warm = max(1, args.warm)
    total = max(args.steps, 1)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warm) * 0.5 * (1 + math.cos(math.pi * min(s, total) / total)))
    model.train()
    run = {"heat": 0.0, "reg": 0.0}
    stop = 0 if args.export_only else min(args.stop or args.steps, args.steps)
    for step in range(1, stop + 1):
        x, heat, reg, mask, weight = sampler.batch(args.batch)
        pred = model(x)
        l_heat = focal(pred[:, 0], heat, weight)
        m = mask.unsqueeze(1)
        n = mask.sum().clamp(min=1)
        l_reg = (F.l1_loss(pred[:, 1:4] * m, reg * m, reduction="sum")) / n
        loss = l_heat + l_reg
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run["heat"] = 0.98 * run["heat"] + 0.02 * float(l_heat.detach())
        run["reg"] = 0.98 * run["reg"] + 0.02 * float(l_reg.detach())
        if step % 50 == 0:
            print(f"step {step} heat {run['heat']:.3f} reg {run['reg']:.3f} lr {sched.get_last_lr()[0]:.5f}"
                  f" ({time.time() - t0:.0f} s)", flush=True)
        if step % 250 == 0 or step == stop:
            torch.save(model.state_dict(), out / "dice_detector.pt")
    split_hash = hashlib.sha256(SPLIT.read_bytes()).hexdigest()
    sources = {
        "nell-byler-d6": "BSD-3-Clause (c) 2019 Nell Byler",
        "matteop65-webcam": "MIT (c) 2021 Matteo Anthony Penlington",
        "rune55-gray-closeups": "rune55 dice dataset (Roboflow Universe, rune-zkmvl), CC BY 4.0",
        "chase-casino-crops": "MIT, chaseelliottpatterson/dice-reader",
    }
    command = "nice -n 10 .venv/bin/python -m training.detector.train " + " ".join(
        f"--{k} {v}" for k, v in (("steps", args.steps), ("batch", args.batch), ("size", args.size),
                                  ("rendered", args.rendered), ("lr", args.lr), ("seed", args.seed),
                                  ("without", args.without), ("stop", args.stop), ("warm", args.warm),
                                  ("all-train", args.all_train)) if v is not None)
    if args.paste:
        command += f" --paste {args.paste}"
    if args.tile:
        command += f" --tile {args.tile}"
    if args.zoom:
        command += f" --zoom {args.zoom}"
    if args.scenes:
        command += f" --scenes {args.scenes} --scene-share {args.scene_share}"
        command += " --scenes-for-rendered" if args.scenes_for_rendered else ""
        command += f" --scene-die-px {args.scene_die_px[0]:g} {args.scene_die_px[1]:g}" if args.scene_die_px else ""
    if args.slim:
        command += " --slim"
    if args.wide:
        command += " --wide"
    if args.deep32:
        command += " --deep32"
    if args.init:
        command += f" --init {args.init}"
    if args.mine:
        command += (f" --mine {args.mine} --mine-threshold {args.mine_threshold} --hard-weight {args.hard_weight}"
                    f" --hard-share {args.hard_share}")
    meta: dict[str, object] = {
        "input": args.size, "stride": STRIDE, "threshold": 0.3, "outputs": ["heat", "dx", "dy", "log_size"],
        "trained_on": {n: {"photos": len(pools[n]), "licence": sources[n]} for n in names}
        | {"rendered": {"trays": args.rendered, "licence": "MIT (companion/vision/render.py)"}}
        | ({"scenes": {"trays": len(scenes), "licence": "MIT (training/scenes, rendered by Mitsuba 3)"}}
           if scenes else {}),
        "credit": "Trained in part on the rune55 dice dataset (Roboflow Universe, rune-zkmvl), CC BY 4.0.",
        "left_out": args.without, "split_sha256": split_hash, "command": command,
        "code_licence": "MIT (training/detector/, written for this project; no pretrained weights)",
        "train_seconds": round(time.time() - t0) if not args.export_only else None,
        "steps_run": stop if not args.export_only else args.stop or args.steps,
        "hard_negatives": mined,
        "network": "slim" if args.slim else "wide" if args.wide else "deep32" if args.deep32 else "default",
        "base_command": _base_command(args.init),
    }
    path = export(model, out, args.size, meta)
    detector = DieDetector(path)
    best, scores = pick_threshold(detector, dev)
    if args.all_train is not None:  # the dev photos were trained on: they choose nothing
        best = args.all_train
        print(f"threshold {best} as given (--all-train: the dev figures above are of trained-on photos)", flush=True)
    meta["threshold"] = best
    meta["dev"] = {n: {"recall": round(s.recall, 4), "precision": round(s.precision, 4)}
                   for n, s in scores[best].items()}
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"threshold {best}; wrote {path} ({time.time() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
