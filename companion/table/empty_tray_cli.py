"""``companion empty-tray capture|check|forget``: the empty tray's reference from a shell.

``capture`` asks a running companion to capture it (``--url``, with the table PIN), or, with the
companion stopped (the camera is the daemon's while it runs), opens the camera of the config itself,
or takes photos of the empty tray (``--image``). The same checks as on the tablet apply: the frames
must be still and show no die; a refusal says why and changes nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    empty = sub.add_parser("empty-tray", help="capture, check or forget the empty tray's reference")
    esub = empty.add_subparsers(dest="empty_command", required=True)
    capture = esub.add_parser("capture", help="take the empty tray's picture (the dice out of the tray)")
    check = esub.add_parser("check", help="is there a whole reference? (exit 1 if it is damaged)")
    forget = esub.add_parser("forget", help="delete the reference (the reader goes on without it)")
    for p in (capture, check, forget):
        p.add_argument("--config", help="companion.toml (default: built-in defaults)")
        p.add_argument("--data", help="the companion's data folder (default from config)")
    capture.add_argument("--url", help="a running companion, e.g. http://127.0.0.1:8080 (needs --pin)")
    capture.add_argument("--pin", help="the table PIN, with --url")
    capture.add_argument("--image", nargs="+", metavar="PHOTO", help="photos of the empty tray instead of the camera")
    capture.add_argument("--frames", type=int, default=0, help="frames to take from the camera (default: 5)")
    capture.set_defaults(func=_capture)
    check.set_defaults(func=_check)
    forget.set_defaults(func=_forget)


def _path(args: argparse.Namespace) -> Path:
    from companion.config import load
    from companion.table.empty_reference import EMPTY_FILE

    data = str(args.data) if args.data else load(args.config).store.data_dir
    return Path(data) / EMPTY_FILE


def _english(message: Any) -> str:
    from companion.i18n.render import localize

    return str(localize(message.to_json(), "en"))


def _capture(args: argparse.Namespace) -> int:
    if args.url:
        return _capture_running(args.url, args.pin)
    from companion.config import ConfigError
    from companion.games.base import RuleViolation
    from companion.table.empty_reference import FRAMES, EmptyReference, check_empty
    from companion.vision.profile_store import TableProfile
    from companion.vision.reader import DiceReader

    try:
        path = _path(args)
        frames = _photos(args.image) if args.image else _camera_frames(args, args.frames or FRAMES)
        profile = TableProfile(path.with_name("dice_profile.npz")).profile
        tray = check_empty(frames, DiceReader(), profile if len(profile) else None)
        EmptyReference(path).save(tray)
    except RuleViolation as exc:
        print(f"companion empty-tray capture: {_english(exc.msg)}", file=sys.stderr)
        return 1
    except (ConfigError, OSError, ValueError) as exc:
        print(f"companion empty-tray capture: {exc}", file=sys.stderr)
        return 2
    print(f"captured the empty tray from {len(frames)} frames into {path} (change level {tray.level:.1f}); "
          "a running companion reads it at its next start")
    return 0


def _photos(paths: list[str]) -> list[Any]:
    from companion.vision.photos import read_photo

    return [read_photo(p) for p in paths]


def _camera_frames(args: argparse.Namespace, n: int) -> list[Any]:
    from companion.config import load
    from companion.hardware.camera import quiet_opencv
    from companion.table.camera_source import open_camera

    settings = load(args.config).camera
    if str(settings.get("source", "auto")) == "none":
        raise OSError("the config has no camera ([camera] source = \"none\"); give --image photos instead")
    with quiet_opencv():  # the one line below says why, without OpenCV's own warnings before it
        try:
            camera = open_camera(settings)
        except Exception as exc:  # a busy camera (the companion runs: use --url), a missing one
            raise OSError(f"cannot open the camera ({exc}): if the companion is running, use --url and --pin; "
                          "without a camera, give photos of the empty tray with --image") from exc
        try:
            frames = []
            for _ in range(n):
                frames.append(camera.read())
                time.sleep(0.1)
            return frames
        finally:
            camera.close()


def _capture_running(url: str, pin: str | None) -> int:
    if not pin:
        print("companion empty-tray capture: --url needs the table PIN (--pin)", file=sys.stderr)
        return 2
    request = urllib.request.Request(
        url.rstrip("/") + "/api/calibration/empty?lang=en", method="POST",
        headers={"X-Table-Pin": pin, "X-Device": "cli", "Content-Type": "application/json"}, data=b"{}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            state = json.loads(answer.read())["empty"]
    except urllib.error.HTTPError as exc:
        try:
            said = json.loads(exc.read()).get("error", exc.reason)
        except ValueError:
            said = exc.reason
        print(f"companion empty-tray capture: {said}", file=sys.stderr)
        return 1
    except (urllib.error.URLError, OSError, ValueError, KeyError) as exc:
        print(f"companion empty-tray capture: no answer from {url} ({exc})", file=sys.stderr)
        return 2
    print(f"the companion at {url} captured the empty tray (state {state['state']})")
    return 0


def _check(args: argparse.Namespace) -> int:
    from companion.config import ConfigError
    from companion.table.empty_reference import EmptyReference

    try:
        ref = EmptyReference(_path(args))
    except ConfigError as exc:
        print(f"companion empty-tray check: {exc}", file=sys.stderr)
        return 2
    if ref.state == "damaged":
        print(f"{ref.path}: damaged, not used ({ref.problem}); capture the empty tray again", file=sys.stderr)
        return 1
    if ref.tray is None:
        print(f"{ref.path}: none captured; the reader reads without the empty tray")
        return 0
    h, w = ref.tray.image.shape[:2]
    print(f"{ref.path}: whole, {w}x{h}, change level {ref.tray.level:.1f}")
    return 0


def _forget(args: argparse.Namespace) -> int:
    from companion.config import ConfigError
    from companion.table.empty_reference import EmptyReference

    try:
        ref = EmptyReference(_path(args))
        forgot = ref.forget()
    except (ConfigError, OSError) as exc:
        print(f"companion empty-tray forget: {exc}", file=sys.stderr)
        return 2
    print(f"{ref.path}: deleted" if forgot else f"{ref.path}: there was none")
    return 0
