"""The dice-tray generator rendering with Mitsuba 3 (marker ``train``; skipped without the ``scenes``
extra): a tiny scene renders, the labels fall on dice, and Mitsuba's camera agrees with the label
projection of ``training/scenes/camera.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

pytestmark = pytest.mark.train
mitsuba = pytest.importorskip("mitsuba")


def test_mitsuba_s_camera_puts_a_point_where_the_label_projection_does():
    from training.scenes.backend import load
    from training.scenes.camera import Camera, orbit, up_for

    mi, _ = load()
    target = np.array([0.0, 0.0, 0.0])
    origin = orbit(target, 30.0, 60.0, 35.0)
    cam = Camera(tuple(origin), (0.0, 0.0, 0.0), up_for(origin, target, 35.0), 45.0, 96, 72)
    point = np.array([3.0, -2.0, 0.5])
    scene = mi.load_dict(
        {
            "type": "scene",
            "integrator": {"type": "path", "max_depth": 2},
            "sensor": {
                "type": "perspective",
                "fov": cam.fov,
                "fov_axis": "x",
                "to_world": mi.ScalarTransform4f().look_at(
                    origin=list(cam.origin), target=list(cam.target), up=list(cam.up)
                ),
                "film": {"type": "hdrfilm", "width": 96, "height": 72},
                "sampler": {"type": "independent", "sample_count": 4},
            },
            "marker": {
                "type": "sphere",
                "center": point.tolist(),
                "radius": 0.4,
                "emitter": {"type": "area", "radiance": {"type": "rgb", "value": [10.0, 10.0, 10.0]}},
            },
        }
    )
    img = np.array(mi.render(scene)).mean(axis=2)
    y, x = np.unravel_index(np.argmax(img), img.shape)
    px, py = cam.project(point[None])[0]
    assert abs(x + 0.5 - px) < 2.5 and abs(y + 0.5 - py) < 2.5


def test_a_generated_tray_renders_with_labels_on_its_dice(tmp_path):
    import cv2

    from training.scenes.__main__ import main

    assert main(["--count", "2", "--seed", "3", "--out", str(tmp_path), "--size", "160x120", "--spp", "4"]) == 0
    images = sorted((tmp_path / "images").glob("*.jpg"))
    assert len(images) == 2
    labelled = 0
    for path in images:
        img = cv2.imread(str(path))
        assert img is not None and img.shape == (120, 160, 3) and img.std() > 3
        for line in (tmp_path / "labels" / f"{path.stem}.txt").read_text().splitlines():
            c, cx, cy, w, h, tx, ty = (float(v) for v in line.split())
            assert 0 <= c <= 5 and 0 < w < 1 and 0 < h < 1
            # the top face centre lies inside the die's box
            assert cx - w / 2 - 0.01 <= tx <= cx + w / 2 + 0.01 and cy - h / 2 - 0.01 <= ty <= cy + h / 2 + 0.01
            labelled += 1
    assert labelled > 0
    again = tmp_path / "again"
    main(["--count", "1", "--seed", "3", "--out", str(again), "--size", "160x120", "--spp", "4"])
    assert (again / "labels" / f"{images[0].stem}.txt").read_text() == (
        tmp_path / "labels" / f"{images[0].stem}.txt"
    ).read_text()
