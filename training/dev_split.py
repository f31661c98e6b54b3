"""A validation part of the *train* photos, for tuning the reader without touching the held-back split.

The model used for tuning is trained on ``fit`` stems only and the pipeline is scored on ``val`` stems;
the shipped model is then retrained on all train stems with the settings chosen. nell-byler-d6: the last
30 train photos by capture time; matteop65-webcam: the last quarter (by frame number) of each capture group;
rune55-gray-closeups and chase-casino-crops: a fifth of the photo groups, the die detector's own dev rule
(``training/detector/data.py``), so that both networks are tuned on the same photos.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPLIT = ROOT / "companion" / "vision" / "split.json"
DATA = ROOT.parent / "shared" / "data" / "dice"  # the dev photos, in ../shared beside the repository


def dev_split() -> dict[str, tuple[list[str], list[str]]]:
    split = json.loads(SPLIT.read_text())
    out: dict[str, tuple[list[str], list[str]]] = {}
    nell = sorted(split["nell-byler-d6"]["train"])
    out["nell-byler-d6"] = (nell[:-30], nell[-30:])
    groups: dict[str, list[str]] = defaultdict(list)
    for stem in split["matteop65-webcam"]["train"]:
        m = re.match(r"(.*?)_?(\d+)$", stem)
        assert m is not None
        groups[m.group(1)].append(stem)
    fit: list[str] = []
    val: list[str] = []
    for stems in groups.values():
        stems.sort(key=lambda s: int(re.findall(r"\d+$", s)[0]))
        k = len(stems) - max(1, len(stems) // 4)
        fit += stems[:k]
        val += stems[k:]
    out["matteop65-webcam"] = (fit, val)
    if str(ROOT) not in sys.path:  # run as a script from training/
        sys.path.insert(0, str(ROOT))
    from training.detector.data import parts

    for name in ("rune55-gray-closeups", "chase-casino-crops"):
        p = parts(name)
        out[name] = (p["fit"], p["dev"])
    return out


if __name__ == "__main__":
    for name, (fit, val) in dev_split().items():
        print(name, len(fit), len(val))
