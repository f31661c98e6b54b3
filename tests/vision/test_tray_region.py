"""Nothing outside the tray counts (issue 58, item 3): the tray's floor from the corner markers or
the empty tray's picture, and the reader ignoring a die outside it while reading one on the rim or
against the wall; with no tray it can make out, it filters nothing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.detector import DieDetector
from companion.vision.empty_tray import EmptyTray
from companion.vision.reader import DiceReader, Reading
from companion.vision.render import RenderDie, render_scene
from companion.vision.tray import find_tray
from companion.vision.tray_region import MARKER_MARGIN, TrayRegion, from_picture
from tests.vision.walled_tray import FLOOR, SCENE, SIDE, SIZE, empty, walled

X0, Y0, X1, Y1 = FLOOR
INSIDE = [RenderDie(3, center=(300, 200), angle=10), RenderDie(5, center=(380, 320), angle=30)]
WALL_DIE = RenderDie(2, center=(X0 + 0.55 * SIDE, 250), angle=0)  # pressed against the left wall
RIM_DIE = RenderDie(4, center=(X1 + 12, 150), angle=5)  # up on the right rim, half over the felt's edge
OUT = (X1 + 24 + 2.0 * SIDE, 300.0)  # out on the table, right of the tray (2.6 die sides past the felt)
OUT_DIE = RenderDie(6, center=OUT, angle=20)


def _near(reading: Reading, at: tuple[float, float]) -> bool:
    return any(np.hypot(d.center[0] - at[0], d.center[1] - at[1]) < SIDE / 2 for d in reading.dice)


@pytest.fixture(scope="module", params=["segmentation", "detector"])
def any_reader(request: pytest.FixtureRequest) -> DiceReader:
    return DiceReader(detector=DieDetector() if request.param == "detector" else None)


def test_the_floor_of_a_walled_tray_is_found_in_its_empty_picture() -> None:
    region = from_picture(empty())
    assert region is not None and region.source == "empty tray"
    xs, ys = region.polygon[:, 0], region.polygon[:, 1]
    assert abs(xs.min() - X0) < 6 and abs(xs.max() - X1) < 6 and abs(ys.min() - Y0) < 6 and abs(ys.max() - Y1) < 6
    assert region.distance(320, 240, (480, 640)) < 0 < region.distance(20, 20, (480, 640))
    # the same region in a frame twice as large: the polygon is scaled with it
    assert abs(region.distance(X1 * 2 + 40, 480, (960, 1280)) - 40) < 12


@pytest.mark.parametrize("picture", ["bare felt", "vignetted cloth", "busy"])
def test_no_tray_made_out_filters_nothing(picture: str) -> None:
    rng = np.random.default_rng(4)
    if picture == "bare felt":  # the felt fills the frame: no edge to tell inside from outside
        img = render_scene([], SCENE, seed=1, size=SIZE)[0]
    elif picture == "vignetted cloth":  # the colour only fades towards the corners (the webcam set's desk)
        yy, xx = np.mgrid[0:480, 0:640].astype(np.float32)
        fade = 1.0 - 0.45 * (((xx - 320) / 320) ** 2 + ((yy - 240) / 240) ** 2)
        img = np.clip(np.array([200, 215, 225], np.float32) * fade[..., None], 0, 255).astype(np.uint8)
    else:  # clutter everywhere
        cells = rng.integers(0, 255, (12, 16, 3)).astype(np.uint8)
        img = cv2.resize(cells, (640, 480), interpolation=cv2.INTER_NEAREST)
    assert from_picture(img) is None
    tray = EmptyTray(img)
    assert tray.floor() is None


def test_a_bare_table_filters_nothing() -> None:
    """Dice on felt that fills the frame, with its empty picture: no floor edge, every die is read,
    one at the frame's edge too."""
    dice = [RenderDie(3, center=(320, 240), angle=10), RenderDie(6, center=(30, 30), angle=0)]
    frame, _ = render_scene(dice, SCENE, seed=2, size=SIZE)
    tray = EmptyTray(render_scene([], SCENE, seed=100, size=SIZE)[0])
    assert tray.floor() is None
    reading = DiceReader().read(frame, empty=tray)
    assert reading.outside == () and _near(reading, (30, 30)) and sorted(reading.values) == [3, 6]


def test_a_die_outside_the_tray_is_ignored_rim_and_wall_dice_are_read(any_reader: DiceReader) -> None:
    frame, drawn = walled(INSIDE + [WALL_DIE, RIM_DIE, OUT_DIE])
    before = any_reader.read(frame)  # without the empty tray: the die on the table is read (the old way)
    assert _near(before, OUT) and before.outside == ()
    reading = any_reader.read(frame, empty=EmptyTray(empty()))
    assert not _near(reading, OUT)
    assert any(np.hypot(x - OUT[0], y - OUT[1]) < SIDE / 2 for x, y, _ in reading.outside)
    assert not any(np.hypot(x - OUT[0], y - OUT[1]) < SIDE for x, y, _ in reading.looked)
    for die in drawn[:4]:  # the two on the felt, the one against the wall, the one on the rim
        assert _near(reading, die.center)
    assert sorted(reading.values) == [2, 3, 4, 5]


def test_an_outside_die_never_takes_a_real_ones_place(any_reader: DiceReader) -> None:
    """With the count: the count cut keeps the tray's dice, and a short count's fill proposes nothing
    outside the tray."""
    frame, _ = walled(INSIDE + [OUT_DIE])
    tray = EmptyTray(empty())
    for expected in (1, 2, 3):
        reading = any_reader.read(frame, empty=tray, expected=expected)
        assert not _near(reading, OUT)
        assert len(reading.dice) <= min(expected, 2)


def _with_markers(img: np.ndarray) -> np.ndarray:
    """The frame widened by ``PAD`` px of table and ArUco corner markers 0-3 stuck outside the floor's
    corners, their inner corners on them: 2.5 die sides wide, as printed ones (40 mm) are against a
    16 mm die; their centres lie beyond the margin, so no marker is read as a die."""
    out = cv2.copyMakeBorder(img, PAD, PAD, PAD, PAD, cv2.BORDER_CONSTANT, value=(40, 70, 110))
    side, quiet = round(2.5 * SIDE), 12
    x0, y0, x1, y1 = X0 + PAD, Y0 + PAD, X1 + PAD, Y1 + PAD
    spots = [(x0 - side, y0 - side), (x1, y0 - side), (x1, y1), (x0 - side, y1)]
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for marker_id, (x, y) in enumerate(spots):
        out[y - quiet:y + side + quiet, x - quiet:x + side + quiet] = 255
        out[y:y + side, x:x + side] = cv2.aruco.generateImageMarker(dictionary, marker_id, side)[..., None]
    return out


PAD = 120


def test_the_markers_give_the_floor_when_seen() -> None:
    frame, _ = walled(INSIDE + [OUT_DIE])
    frame = _with_markers(frame)
    out = (OUT[0] + PAD, OUT[1] + PAD)
    tray = find_tray(frame, marker_mm=40.0)
    assert tray is not None
    region = TrayRegion.from_tray(tray, frame.shape)
    assert region.source == "markers" and region.distance(*out, frame.shape) > MARKER_MARGIN * SIDE
    reading = DiceReader().read(frame, tray=tray)
    assert not _near(reading, out)
    assert any(np.hypot(x - out[0], y - out[1]) < SIDE / 2 for x, y, _ in reading.outside)
    assert sorted(reading.values) == [3, 5]
    # the empty tray's picture holding the markers gives the same floor
    floor = EmptyTray(_with_markers(empty())).floor()
    assert floor is not None and floor.source == "markers"
