"""Speed of the dice reader on one core: median milliseconds per photo.

    .venv/bin/python benchmarks/vision_speed.py [DATA_DIR ...] [--parts] [--network]
        [--compare NAME=A,B] [--model M.onnx]

Defaults to the held-back photos of the dev sets when /work/shared/data/dice exists, else to the test
fixtures. The process is pinned to one core (``sched_setaffinity``) and OpenCV to one thread: a
thread limit alone still let OpenCV's network use a second core. A Pi 4 core is about 4x slower than
one core here. Each set is timed three times; the spread shows how much the shared machine moves.
``--parts`` also times the parts of a reading once: segmentation, the network per window, and the pip
count and colour per die found; and counts the windows the classifier sees in a whole reading.
``--network`` times the network alone: ms a window at batch sizes 1-64 and
each layer of a 32-window batch. ``--compare NAME=A,B`` times the reader with its constant ``NAME`` at A
and at B, taking turns in one process (four passes each), so that the machine's drift falls on both.
``--model`` times another network than the shipped one (a candidate from ``training/train_faces.py``).
``--detector`` times the reader with the learned die detector (``companion/vision/detector.py``), the
detector alone, and the memory it adds (resident set before and after loading it and reading a frame);
``--square 640`` resizes every photo to 640x640 first. With ``--detector`` it also prints the resident
memory the whole reader adds, and its peak, over the process with numpy and OpenCV loaded: both
networks loaded and the first photo read, before the timed photos are loaded (``--head``: with a
taught detector head, the shipped weights run as one in numpy). ``--empty`` times the tray's floor
found in an empty tray's picture (``tray_region.from_picture``, the per-pixel median of 5 of the
set's photos; once per empty tray) and the floor's test of every die of a reading.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's package, not whichever the venv installed

from companion.vision.classifier import Scores  # noqa: E402
from companion.vision.colour import body_colour  # noqa: E402
from companion.vision.detector import DieDetector  # noqa: E402
from companion.vision.detector_head import Head  # noqa: E402
from companion.vision.empty_tray import EmptyTray  # noqa: E402
from companion.vision.evaluate import find_images  # noqa: E402
from companion.vision.pips import count_pips  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.segment import find_dice  # noqa: E402
from companion.vision.tray_region import TrayRegion, from_picture  # noqa: E402

SPLIT = json.loads((ROOT / "companion" / "vision" / "split.json").read_text())
DEFAULT = [Path("/work/shared/data/dice/nell-byler-d6"), Path("/work/shared/data/dice/matteop65-webcam")]


def rss_mb(field: str = "VmRSS") -> float:
    """The process's resident memory (``VmHWM``: its peak), MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def argv_dirs(args: argparse.Namespace) -> list[Path]:
    """The photo folders the run times (as ``main`` picks them)."""
    dirs = [Path(a) for a in args.dirs] or [d for d in DEFAULT if d.exists()]
    return dirs or sorted((ROOT / "tests" / "fixtures" / "dice").iterdir())


def floor_cost(name: str, reader: DiceReader, frames: list[np.ndarray]) -> str:
    """The tray's floor found in an empty picture (once per empty tray), and its test of every die a
    reading finds (each frame), in ms."""
    empty = EmptyTray.from_frames(frames[:: max(1, len(frames) // 5)][:5])
    t = time.perf_counter()
    floor = from_picture(empty.image)
    once = (time.perf_counter() - t) * 1000
    test = floor or TrayRegion(np.array([[0, 0], [639, 0], [639, 639], [0, 639]], np.float32), (640, 640), "test")
    dice = [reader.read(f).dice for f in frames[:20]]
    t = time.perf_counter()
    for ds, f in zip(dice, frames, strict=False):
        for d in ds:
            test.inside(d.center[0], d.center[1], 30.0, f.shape)
    each = (time.perf_counter() - t) * 1000 / len(dice)
    return (f"{name}: the tray's floor from an empty picture: {'none' if floor is None else 'found'}, {once:.1f} ms "
            f"once; testing a reading's {sum(map(len, dice)) / len(dice):.1f} dice against a floor {each:.3f} ms")


def parts(reader: DiceReader, frames: list[np.ndarray]) -> str:
    """Median ms of each part of a reading, each timed on its own."""
    seg: list[float] = []
    net: list[float] = []
    pip: list[float] = []
    col: list[float] = []
    looked: list[int] = []  # windows the classifier saw in a whole reading (every look)
    found: list[int] = []
    batches: list[int] = []  # the size of every batch the reader classifies
    classify = reader.classifier.classify

    def counted(patches: list[np.ndarray]) -> Scores:
        batches.append(len(patches))
        return classify(patches)

    for f in frames:
        t = time.perf_counter()
        find_dice(f)
        seg.append((time.perf_counter() - t) * 1000)
        wins = reader.window_patches(f)
        if wins:
            t = time.perf_counter()
            classify([w[3] for w in wins])
            net.append((time.perf_counter() - t) * 1000 / len(wins))
        batches.clear()
        reader.classifier.classify = counted  # type: ignore[method-assign]
        try:
            dice = reader.read(f).dice
        finally:
            del reader.classifier.classify  # the class's own method again
        looked.append(sum(batches))
        found.append(len(dice))
        for d in dice:
            size = max(d.box[2] - d.box[0], d.box[3] - d.box[1]) * 1.1
            t = time.perf_counter()
            count_pips(f, d.center[0], d.center[1], size)
            pip.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            body_colour(f, d.center[0], d.center[1], size)
            col.append((time.perf_counter() - t) * 1000)
    med = statistics.median
    return (f"  parts: segmentation {med(seg):.2f} ms a photo, network {med(net):.3f} ms a window, "
            f"pip count {med(pip):.3f} ms and colour {med(col):.3f} ms a die; "
            f"{statistics.mean(looked):.1f} classifier windows a photo for {statistics.mean(found):.1f} dice found")


def network(reader: DiceReader) -> str:
    """Median ms a window by batch size, and ms per layer (OpenCV's own profile) for a batch of 32."""
    rng = np.random.default_rng(0)
    lines = []
    for n in (1, 4, 8, 16, 32, 64):
        batch = [rng.integers(0, 255, (32, 32, 3), dtype=np.uint8) for _ in range(n)]
        reader.classifier.classify(batch)
        ts = []
        for _ in range(30):
            t = time.perf_counter()
            reader.classifier.classify(batch)
            ts.append((time.perf_counter() - t) * 1000 / n)
        lines.append(f"batch {n}: {statistics.median(ts):.3f} ms a window")
    net = reader.classifier.net
    layers = np.zeros(len(net.getLayerNames()))
    for _ in range(30):
        reader.classifier.classify(batch[:32])
        layers += np.array(net.getPerfProfile()[1], float).ravel()[: len(layers)]
    ms = layers / 30 / cv2.getTickFrequency() * 1000
    lines += [f"{name}: {t:.2f} ms" for name, t in zip(net.getLayerNames(), ms, strict=True) if t >= 0.05]
    return "  network: " + "\n  network: ".join(lines)


def compare(reader: DiceReader, frames: list[np.ndarray], name: str, values: list[str]) -> str:
    """The reader's constant ``name`` (in ``tuning``) at each value, taking turns, four passes each."""
    from companion.vision import tuning as module

    before = getattr(module, name)
    medians: dict[str, list[float]] = {v: [] for v in values}
    try:
        for rep in range(4):
            for v in values if rep % 2 == 0 else values[::-1]:
                setattr(module, name, type(before)(v))
                ms = []
                for f in frames:
                    t = time.perf_counter()
                    reader.read(f)
                    ms.append((time.perf_counter() - t) * 1000)
                medians[v].append(statistics.median(ms))
    finally:
        setattr(module, name, before)
    return "\n".join(f"  {name}={v}: medians " + ", ".join(f"{m:.1f}" for m in ms)
                     + f" ms, median {statistics.median(ms):.1f}" for v, ms in medians.items())


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="*", type=Path, help="photo folders (default: the dev sets' held-back photos)")
    ap.add_argument("--parts", action="store_true", help="also time the parts of a reading")
    ap.add_argument("--network", action="store_true", help="time the classifier alone by batch size and layer")
    ap.add_argument("--compare", metavar="NAME=A,B", help="the reader's constant NAME at A and at B, taking turns")
    ap.add_argument("--model", help="another classifier (.onnx) than the shipped one")
    ap.add_argument("--detector", nargs="?", const="shipped", metavar="M.onnx",
                    help="with the learned die detector (the shipped one, or this .onnx beside its .json)")
    ap.add_argument("--square", type=int, metavar="PX", help="resize every photo to PX x PX first")
    ap.add_argument("--head", action="store_true", help="with --detector: read with a taught head (numpy)")
    ap.add_argument("--empty", action="store_true", help="read with an empty tray, and time its floor")
    args = ap.parse_args(argv)
    show_parts, show_network, model, square = args.parts, args.network, args.model, args.square
    versus = None
    if args.compare:
        name, _, values = args.compare.partition("=")
        versus = (name, values.split(","))
    with_detector = args.detector is not None
    argv = [str(d) for d in args.dirs]
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)
    dirs = [Path(a) for a in argv] or [d for d in DEFAULT if d.exists()]
    if not dirs:
        dirs = sorted((ROOT / "tests" / "fixtures" / "dice").iterdir())
    start = rss_mb()
    reader = DiceReader(model)
    detector = None
    if with_detector:
        reader.read(np.full((480, 640, 3), 120, np.uint8))
        before = rss_mb()
        detector = DieDetector(None if args.detector == "shipped" else args.detector)
        if args.head:
            detector = DieDetector(detector.path, head=Head.of_net(detector._net))
        reader = DiceReader(model, detector=detector)
        reader.read(np.full((480, 640, 3), 120, np.uint8))
        print(f"memory: the detector{' with a taught head' if args.head else ''} adds {rss_mb() - before:.1f} MB "
              f"resident (loaded and run once)")
        first = next((f for f in (cv2.imread(str(p)) for d in argv_dirs(args) for p in find_images(d)[:1])
                      if f is not None), None)
        if first is not None:
            reader.read(cv2.resize(first, (square, square)) if square else first)
            print(f"memory: the whole reader adds {rss_mb() - start:.1f} MB resident, {rss_mb('VmHWM') - start:.1f} MB "
                  f"at its peak (both networks loaded, a photo read; over {start:.1f} MB with numpy and OpenCV)")
    for d in dirs:
        held_back = set(SPLIT.get(d.name, {}).get("test", []))
        paths = [p for p in find_images(d) if not held_back or p.stem in held_back][:80]
        frames = [f for f in (cv2.imread(str(p)) for p in paths) if f is not None]
        if square:
            frames = [cv2.resize(f, (square, square), interpolation=cv2.INTER_AREA) for f in frames]
        if args.empty:
            print(floor_cost(d.name, reader, frames))
        reader.read(frames[0])  # warm-up: the first forward pass sets up the network
        runs = []
        cpu = []
        for _ in range(3):
            ms = []
            for f in frames:
                t, c = time.perf_counter(), time.process_time()
                reader.read(f)
                ms.append((time.perf_counter() - t) * 1000)
                cpu.append((time.process_time() - c) * 1000)
            runs.append(ms)
        h, w = frames[0].shape[:2]
        medians = sorted(statistics.median(ms) for ms in runs)
        every = sorted(m for ms in runs for m in ms)
        print(f"{d.name}: {len(frames)} photos {w}x{h}, median {medians[1]:.1f} ms (runs {medians[0]:.1f}-"
              f"{medians[2]:.1f}), p90 {every[int(0.9 * len(every))]:.1f} ms (one core); CPU time median "
              f"{statistics.median(cpu):.1f} ms (less moved by other jobs than the wall clock)")
        if detector is not None:
            ms, cpu = [], []
            for _ in range(3):
                for f in frames:
                    t, c = time.perf_counter(), time.process_time()
                    detector.detect(f)
                    ms.append((time.perf_counter() - t) * 1000)
                    cpu.append((time.process_time() - c) * 1000)
            print(f"  detector alone: median {statistics.median(ms):.1f} ms, CPU time {statistics.median(cpu):.1f} ms")
        if show_parts:
            print(parts(reader, frames))
        if versus is not None:
            print(compare(reader, frames, *versus))
    if show_network:
        print(network(reader))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
