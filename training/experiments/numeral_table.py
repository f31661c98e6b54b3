"""A development check of the deeper calibration on a numeral die: rendered trays, never an accuracy claim.

No real set in ``../shared/data/dice`` has numerals, so issue 59's numeral target cannot be measured
on photos. This renders one table (one tray, light, camera and one numeral die look, from the
generator's scene ``--seed``) thrown ``--throws`` times with ``--dice`` dice, then calibrates on the
first throws until every face 1-6 was seen ``--per-face`` times and reads the rest: blind, with the
last layer adapted, and with the last two layers refitted (``companion/vision/face_fit.py``).
``render --pips`` keeps the scene's own pip dice instead (a felt table of issue 58's hard dice).

    OMP_NUM_THREADS=1 nice -n 19 .venv/bin/python training/experiments/numeral_table.py render --out /tmp/numerals
    OMP_NUM_THREADS=1 .venv/bin/python training/experiments/numeral_table.py measure --out /tmp/numerals

Needs the ``scenes`` extra (Mitsuba) for ``render``; ``measure`` needs only the reader.
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.vision.evaluate import Score, iterate  # noqa: E402
from companion.vision.face_fit import refit  # noqa: E402
from companion.vision.face_teach import teach_faces  # noqa: E402
from companion.vision.profile_build import build_profile  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.tuning import UNCERTAIN  # noqa: E402


def render_table(out: Path, seed: int, throws: int, dice: int, size: str, spp: int, rig: bool = False,
                 felt: float = 0.20, pips: bool = False) -> None:
    from training.scenes.backend import load
    from training.scenes.describe import describe
    from training.scenes.layout import place_dice, tray_outline
    from training.scenes.render import render

    width, height = (int(v) for v in size.split("x"))
    base = describe(seed, width, height)
    look = base.looks[0] if pips else replace(base.looks[0], marks="numerals")
    if look.marks == "worm":
        raise SystemExit(f"scene {seed}'s dice wear the worm on their 6: take another --seed")
    if rig:
        base, look = fixed_rig(base, look, (felt, felt, felt * 1.05), keep_look=pips)
    half = base.dice[0].half if base.dice else 0.8
    mi, _ = load("auto", 1)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    if not (out / "empty.jpg").exists():  # the empty tray, as the calibration captures it
        (out / "empty.jpg").write_bytes(render(mi, replace(base, dice=[], looks=[], clutter=[], motion_blur=0.0),
                                               spp)[0])
    for i in range(throws):
        rng = np.random.default_rng([59, seed, i])
        placed = place_dice(rng, tray_outline(base.tray, base.tray_radius), dice, half, floor=base.floor,
                            touch=0.3, wall=0.2, lean=0.0)
        spec = replace(base, seed=seed * 1000 + i, dice=placed, looks=[look] * len(placed), clutter=[],
                       motion_blur=0.0)
        jpeg, labels = render(mi, spec, spp)
        name = f"t{i:03d}"
        (out / "images" / f"{name}.jpg").write_bytes(jpeg)
        (out / "labels" / f"{name}.txt").write_text("".join(lab.yolo(width, height) + "\n" for lab in labels))
        print(f"{name}: {len(labels)}/{len(placed)} dice", flush=True)


RIG_SPAN = 17.4  # the rig's tray radius at most, in die half-sides: 640 px across it, a die is about 48 px


def fixed_rig(base: Any, look: Any, felt: tuple[float, float, float] = (0.20, 0.20, 0.21),
              keep_look: bool = False) -> tuple[Any, Any]:
    """The product's own rig: a camera straight over the tray's centre seeing all of it, in focus and
    still, the mid-grey felt of ``hardware/README.md`` (black: ``--felt 0.02``; on black felt the
    exposure burns light dice white, numerals and all), and a translucent die with white numerals
    (issue 59's own example), or with ``keep_look`` the scene's own dice on its own felt."""
    from training.scenes.camera import Camera, orbit, up_for

    half = base.dice[0].half if base.dice else 0.8
    radius = min(base.tray_radius, RIG_SPAN * half)  # the dice about 48 px wide, as on the rig's 1536 px stream
    base = replace(base, tray_radius=radius)
    target = np.array([0.0, 0.0, 0.3])
    span = radius * 1.08
    distance = span / math.tan(math.radians(base.camera.fov) / 2)
    origin = orbit(target, distance, 89.0, 0.0)
    cam = Camera(tuple(float(v) for v in origin), (0.0, 0.0, 0.3), up_for(origin, target, 0.0),  # type: ignore[arg-type]
                 base.camera.fov, base.camera.width, base.camera.height)
    base = replace(base, camera=cam, table="wood", clutter=[], motion_blur=0.0)
    if keep_look:
        return base, look
    base = replace(base, felt=felt)
    look = replace(look, body="translucent", pip="white", style="painted")
    return base, look


def measure(out: Path, per_face: int, model: str | None, detector: bool = True, teach_detector: bool = False
            ) -> None:
    from companion.vision.detector import DieDetector

    reader = DiceReader(model, detector=DieDetector() if detector else None)  # as the daemon reads
    photos = [(p.stem, f, lab) for p, f, lab in iterate(out)]
    photos.sort(key=lambda x: x[0])
    seen = {f: 0 for f in range(1, 7)}
    cal = 0
    while cal < len(photos) and min(seen.values()) < per_face:
        for d in photos[cal][2]:
            seen[int(d.value)] += 1
        cal += 1
    print(f"calibration: the first {cal} throws, faces seen {seen}; read: the other {len(photos) - cal}")
    empty = None
    if teach_detector:  # as the daemon's teaching job: the detector's head first, on the empty tray
        import cv2

        from companion.vision.composites import Roll
        from companion.vision.empty_tray import EmptyTray
        from companion.vision.teach_detector import teach

        image = cv2.imread(str(out / "empty.jpg"))
        empty = EmptyTray(image) if image is not None else None
        rolls = [Roll(f, lab, image) for _, f, lab in photos[:cal]]
        shipped = reader.detector
        assert shipped is not None
        head, taught = teach(shipped, reader, rolls, empty=empty)
        print(f"detector: kept={taught.kept}; {taught.reason}", flush=True)
        if head is not None and taught.kept:
            reader = copy.copy(reader)
            reader.detector = DieDetector(shipped.path, shipped.second_read, head=head)
    profile = build_profile(reader, [(f, lab) for _, f, lab in photos[:cal]])
    deep, verdict = teach_faces(reader, [(f, lab) for _, f, lab in photos[:cal]], [1, 2, 3, 4, 5, 6], empty=empty)
    print(f"deeper: kept={verdict.kept}, depth {verdict.depth}; {verdict.reason}; {verdict.cpu_seconds} s CPU")
    two = copy.copy(deep)
    two.marks = False
    if two.tail is None:
        refit(two, reader.classifier)
    marked = copy.copy(profile)
    marked.marks = True
    faces = [1, 2, 3, 4, 5, 6]
    both = copy.copy(two)
    both.marks = True
    rows = (("blind", None), ("last layer", profile), ("last two layers", two), ("marks", marked),
            ("last two layers and marks", both),
            (f"as kept (depth {verdict.depth})", deep))
    for name, prof in rows:
        score = Score()
        for _, frame, labels in photos[cal:]:
            r = reader.read(frame, profile=prof, faces=faces, empty=empty)
            score.add(labels, [(d.value, d.box, d.center, d.confidence) for d in r.dice], r.ms, UNCERTAIN)
        print(f"  {name:<28} {score.right}/{score.dice} = {100 * score.right / max(score.dice, 1):.2f}% per die, "
              f"{score.missed} missed, {score.extra} extra, {score.answered_wrong} of {score.answered} answered wrong",
              flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("step", choices=("render", "measure"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--throws", type=int, default=30)
    ap.add_argument("--dice", type=int, default=6)
    ap.add_argument("--size", default="384x288")
    ap.add_argument("--spp", type=int, default=16)
    ap.add_argument("--per-face", type=int, default=2)
    ap.add_argument("--model", help="another face classifier")
    ap.add_argument("--no-detector", action="store_true", help="read without the die detector")
    ap.add_argument("--felt", type=float, default=0.20, help="render --rig: the felt's grey (linear, 0-1)")
    ap.add_argument("--teach-detector", action="store_true", help="measure: teach the detector's head on the "
                    "calibration and the empty tray first, as the daemon's teaching job does")
    ap.add_argument("--pips", action="store_true", help="render: the scene's own dice (pips, its body and felt) "
                    "instead of numerals: the hard felt trays of issue 58 as one table")
    ap.add_argument("--rig", action="store_true", help="render: the product's rig (straight above, the whole tray, "
                    "black felt, a translucent die with white numerals) instead of the seed's camera and look")
    args = ap.parse_args()
    if args.step == "render":
        render_table(args.out, args.seed, args.throws, args.dice, args.size, args.spp, args.rig, args.felt, args.pips)
    else:
        measure(args.out, args.per_face, args.model, not args.no_detector, args.teach_detector)
    return 0


if __name__ == "__main__":
    sys.exit(main())
