"""Finding the dice apart from reading them, per set, on the held-back photos: today's reader, the
learned detector alone, and the reader with the detector; then face accuracy of both readers, blind
and after a 5-photo calibration, with and without the empty-tray reference.

    .venv/bin/python benchmarks/vision_detection.py [--data /work/shared/data/dice] [--part test]
        [--sets NAME ...] [--detector M.onnx] [--model F.onnx] [--no-calibration] [--rendered N]

``--part dev`` scores the dev photos instead (``training/detector/data.py``: where settings are
chosen); ``--part test`` (default) the held-back photos of ``companion/vision/split.json``; ``--part
train`` every train photo but the calibration's five, which only means something for a set the models
were trained ``--without`` (a new table that may be looked at while choosing, held-back photos untouched).
``--detector`` scores another detector than the shipped one, e.g. one trained ``--without`` a set
(the leave-one-source-out run); ``--model`` another face classifier than the shipped one, so that a
retrained classifier is scored by the very command that scored the old one. A die is found when a
proposal's box holds its label box's centre.

The calibration is the one of ``benchmarks/vision_accuracy.py``: a profile from 5 photos of the set's
train part. The empty-tray reference needs a fixed camera: matteop65-webcam's capture groups are one
webcam each, so the reference of a held-back frame is the per-pixel median of 5 train frames of its
group (``EmptyTray.from_frames``); the phone and close-up sets have no fixed camera and get none.
``--rendered N`` adds N rendered hard trays (dark dice on dark felt, translucent dice, walls; seeds
the training never used) whose empty tray is rendered exactly; rendered numbers show the mechanism,
they are no accuracy claim. ``--count-known`` reads each photo as the table does, knowing how many dice
were rolled (``DiceReader.read(expected=...)``: the labels' count), so that extra dice beyond it go.
``--scenes DIR`` scores folders of trays rendered by ``python -m training.scenes`` (a seed the detector
never trained on: felt trays, dark, translucent and neon dice, as the issue's unseen photos show them);
rendered, so no accuracy claim either, but a check of what the real sets never show.
``--rig`` renders those trays as the rig's camera sees them (2304 x 1296, 65-80 px dice).
``--mirrored`` reads each photo mirrored out to twice its size (every photo of the sets is at most
640 px, so only this shows the detector's second read); ``--enlarge K`` reads each photo enlarged K
times (the same scene at a phone's resolution, dice K times wider); ``--one-read`` turns the second
read off.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's package, not whichever the venv installed

from companion.vision.detection_score import DetectionScore  # noqa: E402
from companion.vision.detector import DieDetector  # noqa: E402
from companion.vision.empty_tray import EmptyTray  # noqa: E402
from companion.vision.evaluate import LabelledDie, Score, enlarged, iterate, mirrored  # noqa: E402
from companion.vision.profile_build import build_profile  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.tuning import UNCERTAIN  # noqa: E402

SETS = ("nell-byler-d6", "matteop65-webcam", "rune55-gray-closeups", "chase-casino-crops")


def dev_stems(name: str) -> list[str]:
    from training.detector.data import parts  # the dev rule lives with the training code

    return parts(name)["dev"]


def calibration_stems(train: list[str]) -> list[str]:
    """The 5 train photos a calibration learns from."""
    return train[:: max(1, len(train) // 5)][:5]


def part_stems(name: str, part: str, split: dict[str, dict[str, list[str]]]) -> list[str]:
    """The photos of ``--part``: test (held back), dev, or train (every train photo but the calibration's)."""
    if part == "test":
        return split[name]["test"]
    if part == "dev":
        return dev_stems(name)
    picked = calibration_stems(split[name]["train"])
    return [s for s in split[name]["train"] if s not in picked]


def group(stem: str) -> str:
    m = re.match(r"(.*?)_?(\d+)$", stem)
    return m.group(1) if m else stem


def score_set(name: str, photos: list[tuple[str, np.ndarray, list[LabelledDie]]], readers: dict[str, DiceReader],
              detector: DieDetector | None, profile_photos: list[tuple[np.ndarray, list[LabelledDie]]],
              empties: dict[str, EmptyTray] | None, count_known: bool = False) -> dict[str, object]:
    out: dict[str, object] = {}
    if detector is not None:
        det = DetectionScore()
        ms = []
        for _, frame, labels in photos:
            t = time.perf_counter()
            found = detector.detect(frame)
            ms.append((time.perf_counter() - t) * 1000)
            det.add(labels, [d.box for d in found])
        print(f"  detector alone        {det.line()}  ({statistics.median(ms):.1f} ms median)", flush=True)
        out["detector"] = {"recall": det.recall, "precision": det.precision}
    runs: list[tuple[str, DiceReader, bool, bool]] = []
    for label, reader in readers.items():
        runs.append((label, reader, False, False))
        if profile_photos:
            runs.append((label, reader, True, False))
            if empties is not None and reader.detector is not None:
                runs.append((label, reader, True, True))
    for label, reader, calibrated, with_empty in runs:
        prof = build_profile(reader, profile_photos) if calibrated else None
        found_score, faces = DetectionScore(), Score()
        for stem, frame, labels in photos:
            empty = empties.get(group(stem)) if with_empty and empties else None
            reading = reader.read(frame, profile=prof, empty=empty, expected=len(labels) if count_known else None)
            found_score.add(labels, [d.box for d in reading.dice])
            faces.add(labels, [(d.value, d.box, d.center, d.confidence) for d in reading.dice], reading.ms, UNCERTAIN)
        s = faces.summary()
        tag = label + (", calibrated" if calibrated else ", blind") + (" + empty tray" if with_empty else "")
        tag += ", count known" if count_known else ""
        print(f"  {tag:<44}found: {found_score.line()}", flush=True)
        print(f"  {'':<44}faces: per-die {faces.right}/{faces.dice} = {100 * s['accuracy']:.2f}%, per-image "  # type: ignore[operator]
              f"{faces.images_all_right}/{faces.images} = {100 * s['all_dice_right_images']:.2f}%, confident-wrong "  # type: ignore[operator]
              f"{faces.answered_wrong}/{faces.answered} = {100 * s['confident_wrong']:.2f}% "  # type: ignore[operator]
              f"(answered {100 * s['answered']:.1f}%), missed {faces.missed}, extra {faces.extra}, "  # type: ignore[operator]
              f"{s['ms_median']:.0f} ms median", flush=True)
        out[tag] = {"recall": found_score.recall, "precision": found_score.precision} | {
            k: s[k] for k in ("accuracy", "all_dice_right_images", "confident_wrong", "answered", "missed", "extra")}
    return out


def rendered_hard(n: int, seed0: int = 900_000, size: tuple[int, int] = (640, 480),
                  die: tuple[float, float] = (30, 55)) -> tuple[list[tuple[str, np.ndarray, list[LabelledDie]]],
                                                                dict[str, EmptyTray]]:
    """Hard rendered trays (seeds above any the training used) and their exact empty trays; ``size``
    and ``die`` (px) as the rig's camera sees them with ``--rig``."""
    from companion.vision.render import RenderDie, Scene, render_scene

    rng = np.random.default_rng(seed0)
    photos, empties = [], {}
    felts = [(40, 70, 110), (25, 25, 28), (60, 30, 80), (40, 40, 150)]
    for i in range(n):
        k = int(rng.integers(3, 9))
        dice = []
        for _ in range(k):
            face = int(rng.integers(1, 7))
            if rng.random() < 0.5:
                dice.append(RenderDie(face, "black", body=(35, 40, 45), pip_colour=(40, 170, 215)))
            else:
                dice.append(RenderDie(face, ["red", "blue"][int(rng.integers(2))], translucent=0.6,
                                      pip_colour=(235, 235, 235)))
        scene = Scene(die_size=float(rng.uniform(*die)), touching=bool(rng.random() < 0.5),
                      background=felts[int(rng.integers(len(felts)))], noise=3.0, dim=float(rng.uniform(0.6, 1.0)))
        seed = seed0 + i
        frame, drawn = render_scene(dice, scene, seed=seed, size=size)
        empty, _ = render_scene([], scene, seed=seed, size=size)
        stem = f"hard_{i}"
        labels = [LabelledDie(d.face, d.center, float(max(d.box[2] - d.box[0], d.box[3] - d.box[1])))
                  for d in drawn]
        photos.append((stem, frame, labels))
        empties[group(stem)] = EmptyTray(empty)
    return photos, empties


def generated(folder: Path) -> list[tuple[str, np.ndarray, list[LabelledDie]]]:
    """The trays ``training.scenes`` rendered into ``folder``, labelled as a set is (a worm set's 6 as
    the worm: ``training/scenes/read.py`` asks the scene's seed)."""
    from training.scenes.read import worm_set

    out = []
    for path, frame, labels in iterate(folder):
        if worm_set(path.stem, frame.shape[1], frame.shape[0]):
            labels = [LabelledDie("worm", d.center, d.size) if d.value == 6 else d for d in labels]
        out.append((path.stem, frame, labels))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/work/shared/data/dice")
    ap.add_argument("--sets", nargs="*", default=list(SETS))
    ap.add_argument("--part", choices=("test", "dev", "train"), default="test",
                    help="train: every train photo but the calibration's 5 (for a set a model was trained without)")
    ap.add_argument("--detector", help="another detector (.onnx beside its .json)")
    ap.add_argument("--model", help="another face classifier (.onnx beside its .json)")
    ap.add_argument("--no-calibration", action="store_true")
    ap.add_argument("--only-detector", action="store_true", help="score only the reader with the detector")
    ap.add_argument("--no-detector", action="store_true", help="score only today's reader (no detector model needed)")
    ap.add_argument("--rendered", type=int, default=0)
    ap.add_argument("--scenes", nargs="*", default=[], type=Path, metavar="DIR",
                    help="folders rendered by python -m training.scenes, scored blind like a set")
    ap.add_argument("--rig", action="store_true",
                    help="--rendered trays at the rig's geometry: 2304 x 1296, 65-80 px dice (hardware/README.md)")
    ap.add_argument("--json", help="write the numbers here")
    ap.add_argument("--enlarge", type=float, default=1.0, metavar="K",
                    help="each photo enlarged K times (bicubic): the same scene at a phone's resolution")
    ap.add_argument("--mirrored", action="store_true",
                    help="each photo mirrored out to twice its width and height (four times the dice, each half as "
                         "wide to the detector: a photo of a whole tray); calibration off")
    ap.add_argument("--one-read", action="store_true", help="the detector reads every frame once (no second read)")
    ap.add_argument("--count-known", action="store_true", help="read knowing how many dice each photo holds")
    args = ap.parse_args()
    split = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
    detector = None if args.no_detector else DieDetector(args.detector, second_read=not args.one_read)
    readers: dict[str, DiceReader] = {}
    if not args.only_detector:
        readers["today's reader"] = DiceReader(args.model)
    if detector is not None:
        readers["reader with detector"] = DiceReader(args.model, detector=detector)
    results: dict[str, object] = {}
    for name in args.sets:
        data = Path(args.data) / name
        train = split[name]["train"]
        picked = calibration_stems(train)
        stems = part_stems(name, args.part, split)
        photos = [(p.stem, f, lab) for p, f, lab in iterate(data, only=stems)]
        if args.mirrored:
            photos = [(stem, *mirrored(f, lab)) for stem, f, lab in photos]
        if args.enlarge != 1.0:
            photos = [(stem, *enlarged(f, lab, args.enlarge)) for stem, f, lab in photos]
        n = sum(len(lab) for _, _, lab in photos)
        print(f"{name} ({args.part}): {len(photos)} photos, {n} dice", flush=True)
        calibrate = not (args.no_calibration or args.mirrored or args.enlarge != 1.0)
        profile_photos = [(f, lab) for _, f, lab in iterate(data, only=picked)] if calibrate else []
        empties = None
        if name == "matteop65-webcam" and not args.mirrored and args.enlarge == 1.0:
            by_group: dict[str, list[str]] = defaultdict(list)
            for s in train:
                by_group[group(s)].append(s)
            empties = {}
            for g, members in by_group.items():
                chosen = members[:: max(1, len(members) // 5)][:5]
                empties[g] = EmptyTray.from_frames([f for _, f, _ in iterate(data, only=chosen)])
        results[name] = score_set(name, photos, readers, detector, profile_photos, empties, args.count_known)
    for folder in args.scenes:
        photos = generated(folder)
        print(f"generated {folder}: {len(photos)} frames, {sum(len(lab) for _, _, lab in photos)} dice", flush=True)
        results[f"generated {folder}"] = score_set(str(folder), photos, readers, detector, [], None, args.count_known)
    if args.rendered:
        photos, empties = (rendered_hard(args.rendered, size=(2304, 1296), die=(65, 80)) if args.rig
                           else rendered_hard(args.rendered))
        print(f"rendered hard trays: {len(photos)} frames, {sum(len(lab) for _, _, lab in photos)} dice", flush=True)
        results["rendered"] = score_set("rendered", photos, readers, detector, [], None)
        det_reader = readers.get("reader with detector")
        if det_reader is None:
            return 0
        found_score, faces = DetectionScore(), Score()
        for stem, frame, labels in photos:
            reading = det_reader.read(frame, empty=empties[group(stem)])
            found_score.add(labels, [d.box for d in reading.dice])
            faces.add(labels, [(d.value, d.box, d.center, d.confidence) for d in reading.dice], reading.ms, UNCERTAIN)
        print(f"  {'reader with detector + empty tray':<36}found: {found_score.line()}; per-die "
              f"{100 * faces.right / max(faces.dice, 1):.2f}%", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
