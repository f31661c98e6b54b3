"""``python -m training.scenes --count 500 --seed 1 --out /tmp/trays``: rendered trays with labels.

Writes ``OUT/images/<name>.jpg`` and ``OUT/labels/<name>.txt`` (``labels.py``: the YOLO-like lines
``training/detector/data.py`` reads, plus the top face centre) and ``OUT/scenes.jsonl`` (one line a
scene: seed, seconds, what was drawn). Scene i of seed S has its own seed S * 100000 + i, so any one
scene can be rendered again alone (``--first i --count 1``)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from training.scenes.backend import load
from training.scenes.describe import describe
from training.scenes.render import render


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="start at this scene number")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--size", default="384x288", help="WIDTHxHEIGHT px")
    ap.add_argument("--spp", type=int, default=24, help="samples a pixel")
    ap.add_argument("--variant", default="auto", help="Mitsuba variant (auto: llvm_ad_rgb, else scalar_rgb)")
    ap.add_argument("--threads", type=int, default=1, help="render threads (LLVM variant)")
    args = ap.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    mi, variant = load(args.variant, args.threads)
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    (args.out / "labels").mkdir(parents=True, exist_ok=True)
    t_all = time.time()
    with (args.out / "scenes.jsonl").open("a") as log:
        for i in range(args.first, args.first + args.count):
            seed = args.seed * 100_000 + i
            t0, c0 = time.time(), time.process_time()
            spec = describe(seed, width, height)
            jpeg, labels = render(mi, spec, args.spp)
            name = f"s{seed}"
            (args.out / "images" / f"{name}.jpg").write_bytes(jpeg)
            (args.out / "labels" / f"{name}.txt").write_text("".join(lab.yolo(width, height) + "\n" for lab in labels))
            secs, cpu = time.time() - t0, time.process_time() - c0
            log.write(
                json.dumps(
                    {
                        "name": name,
                        "seed": seed,
                        "seconds": round(secs, 2),
                        "cpu_seconds": round(cpu, 2),
                        "variant": variant,
                        "spp": args.spp,
                        "dice": len(spec.dice),
                        "labelled": len(labels),
                        "tray": spec.tray,
                        "table": spec.table,
                        "lights": [li.kind for li in spec.lights],
                        "bodies": [lk.body for lk in spec.looks],
                    }
                )
                + "\n"
            )
            log.flush()
            print(f"{name}: {len(labels)}/{len(spec.dice)} dice, {secs:.1f} s", flush=True)
    n = max(args.count, 1)
    print(
        f"{args.count} scenes in {time.time() - t_all:.0f} s ({3600 * n / max(time.time() - t_all, 1e-9):.0f} an hour,"
        f" {variant}, {args.spp} spp, {width}x{height})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
