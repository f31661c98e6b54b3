"""Contact sheets of labelled dice, for checking the labels by eye.

    .venv/bin/python training/label_sheets.py --set matteop65-webcam --split test --out /tmp/sheets

Every labelled die of the chosen photos is cropped around its label box and drawn with a number,
sorted by the labelled value, one value per run of sheets: a 4 among 5s stands out. Nothing the
reader says is drawn, so the check is blind to it. ``DIR/index.csv`` maps each number to its photo
and label line, for ``label_audit.json``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion.vision.evaluate import iterate  # noqa: E402
from training.dev_split import DATA  # noqa: E402

CELL = 112  # px per crop on the sheet (--cell)
# How much of the frame around the label box a crop shows: nell-byler-d6 boxes hold the whole die,
# matteop65-webcam boxes only the top face, so the die itself needs a wider crop there.
MARGIN = {"nell-byler-d6": 1.4, "matteop65-webcam": 2.2}


def crop(image: np.ndarray, cx: float, cy: float, size: float, margin: float, cell: int = CELL) -> np.ndarray:
    half = max(8.0, size * margin / 2)
    x0, y0 = int(round(cx - half)), int(round(cy - half))
    side = int(round(2 * half))
    padded = cv2.copyMakeBorder(image, side, side, side, side, cv2.BORDER_CONSTANT, value=(60, 60, 60))
    out = padded[y0 + side:y0 + 2 * side, x0 + side:x0 + 2 * side]
    return cv2.resize(out, (cell, cell), interpolation=cv2.INTER_CUBIC)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--set", required=True)
    ap.add_argument("--split", default="test", choices=["train", "test"])
    ap.add_argument("--out", required=True)
    ap.add_argument("--cell", type=int, default=CELL, help="px per crop; larger for a closer look")
    args = ap.parse_args()
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
    cell = args.cell
    # (value, stem, line, cx, cy, size, crop); the line is the label's index in its file
    rows = []
    for path, frame, labels in iterate(DATA / args.set, only=split[args.set][args.split]):
        for line, lab in enumerate(labels):
            rows.append((lab.value, path.stem, line, *lab.center, lab.size,
                         crop(frame, *lab.center, lab.size, MARGIN[args.set], cell)))
    rows.sort(key=lambda r: (str(r[0]), r[1], r[2]))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "index.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["number", "stem", "line", "value", "cx", "cy", "size"])
        for n, (value, stem, line, cx, cy, size, _) in enumerate(rows):
            writer.writerow([n, stem, line, value, f"{cx:.1f}", f"{cy:.1f}", f"{size:.1f}"])
    columns = max(1, 900 // cell)  # sheets about 900 px square, the size that is read at a glance
    rows_per_sheet = max(1, 800 // (cell + 18))
    per_sheet = columns * rows_per_sheet
    for value in sorted({r[0] for r in rows}, key=str):
        numbered = [(n, r[6]) for n, r in enumerate(rows) if r[0] == value]
        for page in range(0, len(numbered), per_sheet):
            sheet = np.full((rows_per_sheet * (cell + 18), columns * cell, 3), 255, np.uint8)
            for k, (n, image) in enumerate(numbered[page:page + per_sheet]):
                r, c = divmod(k, columns)
                y, x = r * (cell + 18), c * cell
                sheet[y:y + cell, x:x + cell] = image
                cv2.putText(sheet, str(n), (x + 4, y + cell + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                            (0, 0, 0), 1, cv2.LINE_AA)
            cv2.imwrite(str(out / f"value{value}_{page // per_sheet}.png"), sheet)
    print(f"{len(rows)} dice on sheets in {out}")


if __name__ == "__main__":
    main()
