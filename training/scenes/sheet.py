"""A contact sheet: generated trays beside real photos (train split only), for looking at how far the
renders are from a photo. ``python -m training.scenes.sheet --scenes /tmp/trays --out sheet.jpg``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from training.detector.data import SPLIT, data_root

TILE = (240, 180)  # w, h


def _tile(path: Path) -> np.ndarray:
    img = cv2.imread(str(path))
    assert img is not None, path
    h, w = img.shape[:2]
    k = max(TILE[0] / w, TILE[1] / h)
    img = cv2.resize(img, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)
    y0, x0 = (img.shape[0] - TILE[1]) // 2, (img.shape[1] - TILE[0]) // 2
    return img[y0 : y0 + TILE[1], x0 : x0 + TILE[0]]


def _caption(img: np.ndarray, text: str) -> np.ndarray:
    out = img.copy()
    cv2.rectangle(out, (0, 0), (TILE[0], 16), (0, 0, 0), -1)
    cv2.putText(out, text, (4, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (255, 255, 255), 1, cv2.LINE_AA)
    return out


def real_photos(per_set: int, sets: list[str]) -> list[tuple[Path, str]]:
    """``per_set`` train photos of each set, spread evenly over the sorted train stems (never held back)."""
    root = data_root()
    split = json.loads(SPLIT.read_text())
    out = []
    for name in sets:
        stems = sorted(split[name]["train"])
        for i in np.linspace(0, len(stems) - 1, per_set).astype(int):
            hits = list((root / name / "images").glob(stems[i] + ".*"))
            if hits:
                out.append((hits[0], f"real: {name}"))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scenes", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--generated", type=int, default=12)
    ap.add_argument("--quality", type=int, default=80)
    args = ap.parse_args(argv)
    gen = sorted((args.scenes / "images").glob("*.jpg"))[: args.generated]
    real = real_photos(2, ["nell-byler-d6", "matteop65-webcam"]) + real_photos(1, ["rune55-gray-closeups"])
    real += real_photos(1, ["chase-casino-crops"])
    tiles = [_caption(_tile(p), f"generated {p.stem}") for p in gen] + [_caption(_tile(p), c) for p, c in real]
    cols = 6
    while len(tiles) % cols:
        tiles.append(np.zeros((TILE[1], TILE[0], 3), np.uint8))
    sheet = np.vstack([np.hstack(tiles[i : i + cols]) for i in range(0, len(tiles), cols)])
    cv2.imwrite(str(args.out), sheet, [cv2.IMWRITE_JPEG_QUALITY, args.quality])
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB, {len(gen)} generated, {len(real)} real)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
