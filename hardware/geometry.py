#!/usr/bin/env python3
"""Camera height and pixels per die for a dice tray under a Raspberry Pi Camera Module 3.

    python3 hardware/geometry.py                 # the 30 x 20 cm tray of hardware/README.md
    python3 hardware/geometry.py --tray 40 30    # another tray, in cm

A pinhole model, camera looking straight down: at lens height h the frame covers
2 h tan(HFOV/2) by 2 h tan(VFOV/2). The lens must be high enough for the tray plus a margin on each
side (the ArUco corner markers sit just outside the tray) to fit both ways; the die size in pixels
follows from the frame width at that height. The off-axis angle at the tray's corners says how much
of a die's side face shows there: the smaller, the less a side's pips can be mistaken for the top's.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

# Raspberry Pi Camera Module 3 (Sony IMX708, 4608 x 2592, 16:9): fields of view from the product brief.
LENSES = {"standard": (66.0, 41.0), "wide": (102.0, 67.0)}
SENSOR = (4608, 2592)


@dataclass(frozen=True)
class Setup:
    lens: str
    resolution: tuple[int, int]
    height_mm: float  # lens above the tray floor
    field_mm: tuple[float, float]  # what the frame covers on the floor at that height
    px_per_mm: float
    die_px: float  # a 16 mm die's top face, across
    corner_angle_deg: float  # off-axis angle of the tray's corners


def fov(lens: str, resolution: tuple[int, int]) -> tuple[float, float]:
    """(horizontal, vertical) field of view in degrees for a stream of this size.

    A 16:9 stream uses the whole sensor. Another aspect ratio is cropped from it by libcamera:
    a 4:3 stream keeps the full height and loses the sides.
    """
    h_fov, v_fov = LENSES[lens]
    aspect, sensor_aspect = resolution[0] / resolution[1], SENSOR[0] / SENSOR[1]
    if aspect < sensor_aspect:
        h_fov = 2 * math.degrees(math.atan(math.tan(math.radians(v_fov / 2)) * aspect))
    elif aspect > sensor_aspect:
        v_fov = 2 * math.degrees(math.atan(math.tan(math.radians(h_fov / 2)) / aspect))
    return h_fov, v_fov


def plan(
    lens: str = "standard",
    tray_mm: tuple[float, float] = (300.0, 200.0),
    *,
    margin_mm: float = 45.0,
    resolution: tuple[int, int] = (2304, 1296),
    die_mm: float = 16.0,
) -> Setup:
    """The lowest lens height that frames the tray plus ``margin_mm`` all round, and what it gives."""
    h_fov, v_fov = fov(lens, resolution)
    need_w, need_h = tray_mm[0] + 2 * margin_mm, tray_mm[1] + 2 * margin_mm
    tan_h, tan_v = math.tan(math.radians(h_fov / 2)), math.tan(math.radians(v_fov / 2))
    height = max(need_w / (2 * tan_h), need_h / (2 * tan_v))
    field = (2 * height * tan_h, 2 * height * tan_v)
    px_per_mm = resolution[0] / field[0]
    corner = math.degrees(math.atan(math.hypot(tray_mm[0] / 2, tray_mm[1] / 2) / height))
    return Setup(lens, resolution, height, field, px_per_mm, die_mm * px_per_mm, corner)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tray", nargs=2, type=float, default=(30.0, 20.0), metavar=("W_CM", "H_CM"))
    parser.add_argument("--margin", type=float, default=4.5, help="cm around the tray (default: 4.5)")
    args = parser.parse_args()
    tray = (args.tray[0] * 10, args.tray[1] * 10)
    print(f"tray {args.tray[0]:g} x {args.tray[1]:g} cm, {args.margin:g} cm margin, 16 mm dice")
    print(
        f"{'lens':<9} {'stream':>10} {'FOV h x v':>12} {'lens height':>12} {'frame on tray':>15}"
        f" {'px/mm':>6} {'px/die':>7} {'corner':>7}"
    )
    for lens in LENSES:
        for resolution in ((2304, 1296), (1536, 864), (4608, 2592), (1280, 960)):
            s = plan(lens, tray, margin_mm=args.margin * 10, resolution=resolution)
            h_fov, v_fov = fov(lens, resolution)
            stream = f"{resolution[0]}x{resolution[1]}"
            print(
                f"{lens:<9} {stream:>10} {h_fov:5.1f} x {v_fov:4.1f} {s.height_mm / 10:9.1f} cm"
                f" {s.field_mm[0] / 10:6.1f} x {s.field_mm[1] / 10:4.1f} cm {s.px_per_mm:6.2f}"
                f" {s.die_px:7.0f} {s.corner_angle_deg:6.0f}°"
            )


if __name__ == "__main__":
    main()
