"""``companion dice read|eval|calibrate|retrain``: the dice reader from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    dice = sub.add_parser("dice", help="read dice in photos, score the reader, build a profile")
    dsub = dice.add_subparsers(dest="dice_command", required=True)

    read = dsub.add_parser("read", help="read the dice in images; one JSON line per image with --json")
    read.add_argument("images", nargs="*", help="image files (before or after --faces)")
    read.add_argument("--json", action="store_true", help="one JSON object per image per line")
    read.add_argument("--profile", help="a profile made by 'companion dice calibrate'")
    read.add_argument("--annotate", metavar="DIR", help="write each image annotated into DIR")
    read.add_argument("--expected", type=int, help="how many dice there are, if known")
    read.add_argument("--faces", action=_Faces, nargs="+", metavar="FACE",
                      help="the faces the dice can show, if known: e.g. 1 2 3 4 5 6 (no symbol face), "
                           "1 2 3 4 5 worm (Heckmeck) or worm 2 3 4 5 6 (a symbol on the 1); 'symbol' = 'worm'")
    read.add_argument("--model", help="another face classifier (.onnx beside its .json), e.g. the table's own")
    _detector_flags(read)
    read.set_defaults(func=_read)

    ev = dsub.add_parser("eval", help="score the reader against YOLO labels (DIR/images, DIR/labels)")
    ev.add_argument("data_dir", nargs="?", help="photos with YOLO labels (before or after --faces)")
    ev.add_argument("--profile", help="a profile made by 'companion dice calibrate'")
    ev.add_argument("--skip", nargs="*", default=[], help="image stems to leave out (e.g. the profile's)")
    ev.add_argument("--split", help="'train' or 'test': only that part of the fixed split (split.json)")
    ev.add_argument("--json", action="store_true", help="print the summary as JSON")
    ev.add_argument("--model", help="another face classifier (.onnx beside its .json), e.g. one in training")
    ev.add_argument("--faces", action=_Faces, nargs="+", metavar="FACE", help="the faces the dice can show")
    _detector_flags(ev)
    ev.set_defaults(func=_eval)

    cal = dsub.add_parser("calibrate", help="build a profile from labelled photos of the table's dice")
    cal.add_argument("data_dir", help="photos with YOLO labels (class 6 = symbol face)")
    cal.add_argument("--out", required=True, help="profile file to write (.npz)")
    cal.add_argument("--only", nargs="*", help="image stems to use (default: all)")
    cal.add_argument("--model", help="another face classifier (.onnx beside its .json)")
    cal.add_argument("--faces", action=_Faces, nargs="+", metavar="FACE",
                     help="the faces the set has (default 1-6, and the symbol face when one is labelled)")
    cal.add_argument("--last-layer", action="store_true",
                     help="adapt the classifier's last layer alone (no deeper refit, face_fit.py)")
    _detector_flags(cal)
    cal.set_defaults(func=_calibrate)

    ret = dsub.add_parser("retrain", help="retrain the network deeper on a grown profile (needs the 'train' extra)")
    ret.add_argument("--profile", required=True, help="the table's profile (.npz)")
    ret.add_argument("--out", required=True, help="the table's model to write (.onnx, its .json beside it)")
    ret.add_argument("--model", help="the model to start from (default: the shipped one)")
    ret.add_argument("--threads", type=int, default=1, help="CPU threads for torch")
    ret.add_argument("--json", action="store_true", help="print the check's verdict as JSON")
    ret.set_defaults(func=_retrain)

    from companion.vision import cli_teach

    cli_teach.register(dsub)


def _face(text: str) -> int | str | None:
    """A face from the command line (1-6, ``worm`` or ``symbol`` for the symbol face), else None."""
    from companion.vision import FACES

    value: int | str = int(text) if text.isdigit() else text.lower()
    value = "worm" if value == "symbol" else value
    return value if value in FACES else None


class _Faces(argparse.Action):
    """``--faces 1 2 3 4 5 6``: the leading values that are faces. What follows them (``--faces 1 2 3 4
    5 6 photo.jpg``) is not swallowed: it goes back to the command's positional arguments."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        values = list(values)
        faces: list[int | str] = []
        while values and _face(values[0]) is not None and len(faces) < 7:
            face = _face(values.pop(0))
            if face in faces:
                parser.error(f"--faces: {face} is given twice")
            faces.append(face)  # type: ignore[arg-type]
        if not faces:
            parser.error(f"--faces: {values[0]!r} is not a face: 1-6, or worm (symbol)")
        setattr(namespace, self.dest, faces)
        namespace.after_faces = [*getattr(namespace, "after_faces", []), *values]


def _positionals(args: argparse.Namespace, name: str) -> list[str]:
    """A positional argument's values, with those that followed ``--faces``."""
    given = getattr(args, name)
    given = [] if given is None else [given] if isinstance(given, str) else list(given)
    return given + list(getattr(args, "after_faces", []))


def _detector_flags(parser: argparse.ArgumentParser) -> None:
    """The reader of these commands is the daemon's: with the learned detector when it is shipped.
    ``--no-detector`` gives the reader without it (segmentation alone finds the dice)."""
    parser.add_argument("--detector", dest="detector", action="store_true", default=None,
                        help="find the dice with the learned detector too (the default, as in the daemon)")
    parser.add_argument("--no-detector", dest="detector", action="store_false",
                        help="find the dice by segmentation alone, without the learned detector")
    parser.add_argument("--detector-head", metavar="HEAD.npz",
                        help="the detector's head as a table taught it ('companion dice teach-detector')")


def _detector(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from companion.vision.detector import DEFAULT_DETECTOR, DieDetector, available
    from companion.vision.tuning import USE_DETECTOR

    wanted = getattr(args, "detector", None)
    if wanted is False or (wanted is None and not (USE_DETECTOR and available())):
        return None
    if not available():  # asked for by name, and not installed
        raise SystemExit(f"companion dice: --detector: the die detector's model is not installed "
                         f"({DEFAULT_DETECTOR} and its .json); leave out --detector")
    if getattr(args, "detector_head", None):
        from companion.vision.detector_head import Head

        return DieDetector(head=Head.load(args.detector_head))
    return DieDetector()


def _load_profile(path: str | None):  # type: ignore[no-untyped-def]
    if path is None:
        return None
    from companion.vision.profile_adapt import Profile

    return Profile.load(path)


def _read(args: argparse.Namespace) -> int:
    import cv2

    from companion.vision.annotate import annotate
    from companion.vision.photos import read_photo
    from companion.vision.reader import DiceReader

    images = _positionals(args, "images")
    if not images:
        print("companion dice read: give at least one image", file=sys.stderr)
        return 2
    reader = DiceReader(args.model, profile=_load_profile(args.profile), detector=_detector(args))
    out_dir = Path(args.annotate) if args.annotate else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    status = 0
    for name in images:
        try:
            frame = read_photo(name)
        except OSError as exc:
            print(exc, file=sys.stderr)
            status = 2
            continue
        reading = reader.read(frame, expected=args.expected, faces=args.faces)
        if args.json:
            obj = {"image": name, "dice": [d.to_json() for d in reading.dice], "ms": round(reading.ms, 2)}
            print(json.dumps(obj), flush=True)
        else:
            values = " ".join(f"{d.value}{'?' if d.uncertain else ''}" for d in reading.dice)
            print(f"{name}: {values or '(no dice)'}  [{reading.ms:.1f} ms]")
        if out_dir is not None:
            cv2.imwrite(str(out_dir / (Path(name).stem + ".png")), annotate(frame, reading))
    return status


def _split_stems(data_dir: Path, part: str) -> list[str] | None:
    from companion.vision.classifier import MODELS

    split = json.loads((MODELS.parent / "split.json").read_text())
    entry = split.get(data_dir.resolve().name)
    return None if entry is None else list(entry[part])


def _eval(args: argparse.Namespace) -> int:
    from companion.vision.evaluate import Score, iterate
    from companion.vision.reader import DiceReader
    from companion.vision.tuning import UNCERTAIN

    given = _positionals(args, "data_dir")
    if len(given) != 1:
        print("companion dice eval: give one folder of labelled photos", file=sys.stderr)
        return 2
    data = Path(given[0])
    only = _split_stems(data, args.split) if args.split else None
    if args.split and only is None:
        print(f"{data}: not in split.json", file=sys.stderr)
        return 2
    reader = DiceReader(args.model, profile=_load_profile(args.profile), detector=_detector(args))
    score = Score()
    for _, frame, labels in iterate(data, skip=args.skip, only=only):
        reading = reader.read(frame, faces=args.faces)
        dice = [(d.value, d.box, d.center, d.confidence) for d in reading.dice]
        score.add(labels, dice, reading.ms, UNCERTAIN)
    if score.images == 0:
        print(f"{data}: no labelled images", file=sys.stderr)
        return 2
    print(json.dumps(score.summary()) if args.json else score.report())
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    from companion.vision.evaluate import iterate
    from companion.vision.profile_build import build_profile
    from companion.vision.reader import DiceReader

    reader = DiceReader(args.model, detector=_detector(args))
    photos = [(frame, labels) for _, frame, labels in iterate(Path(args.data_dir), only=args.only)]
    if not photos:
        print(f"{args.data_dir}: no labelled images", file=sys.stderr)
        return 2
    note = ""
    if args.last_layer:
        profile = build_profile(reader, photos)
    else:  # the photos in the order given are the rolls: the newest held back to decide how deep
        from companion.vision.face_teach import teach_faces

        if args.only:
            photos = [(frame, labels) for stem in args.only
                      for _, frame, labels in iterate(Path(args.data_dir), only=[stem])]
        profile, verdict = teach_faces(reader, photos, args.faces)
        how = {3: "the faces told by their marks", 2: "the last two layers refitted"}.get(verdict.depth,
                                                                                        "the last layer")
        note = f"; {how}: {verdict.reason}"
    profile.save(args.out)
    print(f"{args.out}: {len(profile)} patches from {len(photos)} photos{note}")
    return 0


def _retrain(args: argparse.Namespace) -> int:
    """Exit 0 when the table's model was written, 1 when the check kept the model as it was."""
    from dataclasses import asdict

    try:
        from companion.vision import retrain_network as retrain
    except ImportError as exc:
        print(f"retraining needs torch and onnx (pip install -e '.[train]'): {exc}", file=sys.stderr)
        return 2
    profile = _load_profile(args.profile)
    verdict = retrain.retrain(profile, args.out, args.model, threads=args.threads)
    if args.json:
        print(json.dumps(asdict(verdict)))
    else:
        print(f"{args.out if verdict.pull is not None else 'nothing written'}: {verdict.reason}")
    return 0 if verdict.pull is not None else 1
