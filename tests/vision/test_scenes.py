"""The dice-tray generator's pure parts (``training/scenes``: placement, faces, camera, labels, seeded
descriptions): numpy only, no renderer, so they run in the normal suite. Rendering itself:
``test_scenes_render.py`` (marker ``train``, skipped without Mitsuba)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from training.scenes.camera import Camera, orbit, up_for  # noqa: E402
from training.scenes.describe import describe  # noqa: E402
from training.scenes.die import FACE_NORMAL, face_up, rot_axis, rounded_cube, top_face  # noqa: E402
from training.scenes.labels import label  # noqa: E402
from training.scenes.layout import Placed, inside_distance, place_dice, squares_overlap, tray_outline  # noqa: E402
from training.scenes.marks import CELL, atlas  # noqa: E402


def top_down(width: int = 320, height: int = 240, distance: float = 30.0) -> Camera:
    target = np.array([0.0, 0.0, 0.0])
    origin = orbit(target, distance, 90.0, 0.0)
    return Camera(tuple(origin), (0.0, 0.0, 0.0), up_for(origin, target, 0.0), 50.0, width, height)


@pytest.mark.parametrize("value", range(1, 7))
def test_the_face_put_on_top_is_read_on_top_at_any_turn(value):
    for yaw in np.linspace(0, 2 * math.pi, 7):
        r = face_up(value, float(yaw))
        assert top_face(r) == value
        assert (r @ np.array(FACE_NORMAL[value]))[2] == pytest.approx(1.0)
        # tilted by less than 45 degrees (a die leaning on another) the same face is still the top one
        assert top_face(rot_axis(np.array([1.0, 0.3, 0.0]), math.radians(35)) @ r) == value


def test_opposite_faces_sum_to_seven():
    for f, n in FACE_NORMAL.items():
        assert FACE_NORMAL[7 - f] == tuple(-v for v in n)


def test_the_rounded_cube_stays_inside_its_cube_and_reaches_each_face():
    v, n, uv, t = rounded_cube(1.0, 0.3)
    assert np.abs(v).max() == pytest.approx(1.0)
    assert np.all(np.linalg.norm(v, axis=1) <= math.sqrt(3) - 0.2)  # corners cut off
    assert np.allclose(np.linalg.norm(n, axis=1), 1.0)
    assert t.max() < len(v) and uv.min() >= 0 and uv.max() <= 1


def test_a_die_at_the_centre_projects_to_the_image_centre_and_right_goes_right():
    cam = top_down()
    centre, right = cam.project(np.array([[0.0, 0.0, 0.0], [0.0, 3.0, 0.0]]))
    assert centre == pytest.approx([160.0, 120.0])
    assert right[0] != pytest.approx(160.0)  # the azimuth's heading decides which way, but it moves
    # a point at the frame's edge: the horizontal field of view reaches it
    half = 30.0 * math.tan(math.radians(25))
    r, u, _ = cam.frame()
    edge = cam.project((r * half)[None])[0]
    assert edge == pytest.approx([320.0, 120.0], abs=1e-6)
    behind = cam.project(np.array([[0.0, 0.0, 40.0]]))[0]
    assert np.isnan(behind).all()


def test_a_label_is_the_top_face_centre_and_the_box_round_the_die():
    cam = top_down()
    die = Placed(np.array([0.0, 0.0, 0.8]), face_up(5, 0.4), 0.8)
    lab = label(die, cam, 0.16)
    assert lab is not None and lab.value == 5
    assert lab.top == pytest.approx((160.0, 120.0), abs=1e-6)
    x0, y0, x1, y1 = lab.box
    assert x0 < 160 < x1 and y0 < 120 < y1
    # seen from above, a die twice as far away looks half as wide
    far = label(die, top_down(distance=60.0), 0.16)
    assert far is not None
    assert (far.box[2] - far.box[0]) < 0.55 * (x1 - x0)
    cols = lab.yolo(320, 240).split()
    assert len(cols) == 7 and cols[0] == "4"
    # mostly outside the frame: no label
    assert label(Placed(np.array([40.0, 0.0, 0.8]), face_up(2, 0.0), 0.8), cam, 0.16) is None


@pytest.mark.parametrize("shape", ["hexagon", "square", "round"])
def test_dice_never_overlap_and_stay_in_the_tray(shape):
    outline = tray_outline(shape, 10.0)
    for seed in range(15):
        dice = place_dice(np.random.default_rng(seed), outline, 12, 0.8, floor=0.3, lean=0.3)
        assert dice
        for i, a in enumerate(dice):
            assert inside_distance(outline, a.centre[:2]) >= 0.8 * 1.45 - 1e-9
            # resting: the lowest point on the floor
            corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * a.half
            low = (corners @ a.rotation.T)[:, 2].min() + a.centre[2]
            assert low == pytest.approx(0.3) if a.leaning else a.centre[2] == pytest.approx(0.3 + a.half)
            for b in dice[i + 1 :]:
                assert not squares_overlap(a.footprint(), b.footprint())


def test_placement_makes_touching_dice_and_leaning_ones():
    outline = tray_outline("square", 12.0)
    gaps, leaning = [], 0
    for seed in range(20):
        dice = place_dice(np.random.default_rng(seed), outline, 10, 0.8, floor=0.3, touch=0.7, lean=0.1)
        leaning += sum(d.leaning for d in dice)
        for i, a in enumerate(dice):
            gaps.append(
                min((np.linalg.norm(a.centre[:2] - b.centre[:2]) for j, b in enumerate(dice) if j != i), default=99.0)
            )
    assert np.mean(np.array(gaps) < 2 * 0.8 * 1.4) > 0.3  # many dice lie side by side, a few mm apart at most
    assert leaning > 0


def test_squares_overlap_by_separating_axes():
    a = np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]])
    assert squares_overlap(a, a + [1.5, 0.0])
    assert not squares_overlap(a, a + [2.1, 0.0])
    turned = a @ np.array([[math.cos(0.7), -math.sin(0.7)], [math.sin(0.7), math.cos(0.7)]]).T
    assert squares_overlap(a, turned + [2.3, 0.0])  # a turned square's corner reaches further


def test_the_same_seed_describes_the_same_scene_and_others_differ():
    a, b, c = describe(7), describe(7), describe(8)
    assert repr(a.looks) == repr(b.looks) and a.camera == b.camera and a.tray == b.tray
    assert all(
        np.array_equal(x.rotation, y.rotation) and np.array_equal(x.centre, y.centre)
        for x, y in zip(a.dice, b.dice, strict=True)
    )
    assert (repr(a.looks), a.camera) != (repr(c.looks), c.camera)


def test_descriptions_cover_the_issue_s_variety():
    specs = [describe(s) for s in range(120)]
    bodies = {lk.body for s in specs for lk in s.looks}
    assert bodies == {"opaque", "translucent", "marbled", "neon", "pearl", "metallic", "glitter"}
    assert {lk.marks for s in specs for lk in s.looks} >= {"pips", "numerals"}
    assert {lk.pip for s in specs for lk in s.looks} == {"white", "black", "gold", "red"}
    assert {s.tray for s in specs} == {"hexagon", "square", "round"}
    assert {li.kind for s in specs for li in s.lights} == {"lamp", "window", "ring", "flash"}
    elevations = [
        math.degrees(
            math.asin(
                (s.camera.origin[2] - s.camera.target[2])
                / np.linalg.norm(np.subtract(s.camera.origin, s.camera.target))
            )
        )
        for s in specs
    ]
    assert min(elevations) < 50 and max(elevations) > 85
    assert any(s.camera.aperture > 0 for s in specs) and any(s.motion_blur > 0 for s in specs)
    assert all(1 <= len(s.dice) <= 12 for s in specs)


@pytest.mark.parametrize("style", ["painted", "engraved"])
def test_each_face_of_the_atlas_carries_its_number_of_pips(style):
    import cv2

    a = atlas("pips", style)
    for f in range(1, 7):
        x0, y0 = ((f - 1) % 3) * CELL, ((f - 1) // 3) * CELL
        cell = (a[y0 : y0 + CELL, x0 : x0 + CELL, 0] > 0.5).astype(np.uint8)
        assert cv2.connectedComponents(cell)[0] - 1 == f
    assert (a[..., 1] >= a[..., 0]).all()
    if style == "engraved":
        assert a[..., 1].sum() > 1.3 * a[..., 0].sum()


def test_the_worm_replaces_only_the_six():
    pips, worm = atlas("pips", "painted"), atlas("worm", "painted")
    assert np.array_equal(pips[:CELL], worm[:CELL])  # faces 1-3
    six = (slice(CELL, 2 * CELL), slice(2 * CELL, 3 * CELL))
    assert not np.array_equal(pips[six], worm[six]) and worm[six][..., 0].sum() > 0


def test_generated_labels_are_read_by_the_detector_s_data_loader(tmp_path):
    import cv2

    from training.detector.data import load_scenes

    cam = top_down()
    die = Placed(np.array([2.0, 1.0, 0.8]), face_up(3, 0.2), 0.8)
    lab = label(die, cam, 0.16)
    assert lab is not None
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "s1.jpg"), np.zeros((240, 320, 3), np.uint8))
    (tmp_path / "labels" / "s1.txt").write_text(lab.yolo(320, 240) + "\n")
    photos = load_scenes(tmp_path)
    assert len(photos) == 1 and photos[0].name == "scenes"
    cx, cy, side = photos[0].dice[0]  # a 320 px frame is under the loader's 384 px cache side
    assert cx == pytest.approx((lab.box[0] + lab.box[2]) / 2, abs=0.01)
    assert cy == pytest.approx((lab.box[1] + lab.box[3]) / 2, abs=0.01)
