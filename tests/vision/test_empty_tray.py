"""The empty-tray reference as the reader uses it without a detector (the daemon's reader): it sizes
and finds dice the reader alone misses, shows where it looked, and says when it no longer matches."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.empty_tray import EmptyTray
from companion.vision.reader import DiceReader
from companion.vision.render import RenderDie, Scene, render_scene
from companion.vision.render_die import corners

WALL = (150, 120, 90)
SCENE = Scene(die_size=46.0, background=(60, 40, 120), noise=3.0, tray_seed=7)


def _walled(img: np.ndarray, holes: list) -> np.ndarray:
    """A tray wall down the left side; a die pressed against it hides the wall behind it."""
    band = np.zeros(img.shape[:2], np.uint8)
    band[:, :80] = 255
    for d in holes:
        cv2.fillPoly(band, [np.round(corners(d.center[0], d.center[1], d.size * 1.02, d.angle)).astype(np.int32)], 0)
    out = img.copy()
    out[band > 0] = WALL
    return out


def hard_tray(seed: int = 2) -> tuple[np.ndarray, EmptyTray, list]:
    """Translucent red dice against a wall on purple felt and a dark die with gold pips; five frames
    of the same tray, empty, with their own noise."""
    dice = [RenderDie(f, "red", translucent=0.7, pip_colour=(235, 235, 235), center=(106.0, 100.0 + 120 * i),
                      angle=2.0) for i, f in enumerate((3, 5, 4))]
    dice.append(RenderDie(2, "black", body=(38, 40, 44), pip_colour=(40, 170, 215)))
    frame, drawn = render_scene(dice, SCENE, seed=seed)
    empties = [_walled(render_scene([], SCENE, seed=100 + k)[0], []) for k in range(5)]
    return _walled(frame, drawn), EmptyTray.capture(empties), drawn


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader()


def test_the_reference_finds_dice_the_reader_alone_misses(reader: DiceReader) -> None:
    frame, tray, drawn = hard_tray()
    assert reader.read(frame).dice == []  # blind, the reader finds none of them on this tray
    reading = reader.read(frame, empty=tray)
    assert sorted(map(str, reading.values)) == ["2", "3", "4", "5"]
    for die in drawn:
        assert any(np.hypot(d.center[0] - die.center[0], d.center[1] - die.center[1]) < die.size / 2
                   for d in reading.dice)


def test_the_level_of_change_follows_the_cameras_noise() -> None:
    quiet = [render_scene([], SCENE, seed=100 + k)[0] for k in range(5)]
    noisy_scene = Scene(die_size=46.0, background=(60, 40, 120), noise=12.0, tray_seed=7)
    noisy = [render_scene([], noisy_scene, seed=100 + k)[0] for k in range(5)]
    assert EmptyTray.capture(noisy).level > EmptyTray.capture(quiet).level
    with pytest.raises(ValueError):
        EmptyTray.capture(quiet[:1])


def test_where_it_looked_is_in_the_reading(reader: DiceReader) -> None:
    """Something that is not a die (a coin) differs from the empty tray: no die, a grey circle there."""
    empties = [render_scene([], SCENE, seed=100 + k)[0] for k in range(5)]
    tray = EmptyTray.capture(empties)
    frame, drawn = render_scene([RenderDie(4), RenderDie(1)], SCENE, seed=3)
    coin = (500, 380)
    cv2.circle(frame, coin, 22, (160, 160, 165), -1, cv2.LINE_AA)
    reading = reader.read(frame, empty=tray)
    assert sorted(reading.values) == [1, 4]  # type: ignore[type-var]
    assert any(np.hypot(x - coin[0], y - coin[1]) < 15 for x, y, _ in reading.looked)
    assert reader.read(frame).looked == ()  # without the reference the reader shows no such places


def test_stale_when_the_light_or_camera_mode_changes() -> None:
    frame, tray, _ = hard_tray()
    assert tray.matches(frame)
    assert tray.matches(np.clip(frame.astype(np.float32) * 0.8, 0, 255).astype(np.uint8))  # a dimmer room
    h, w = frame.shape[:2]
    lamp = np.linspace(0.4, 1.4, w, dtype=np.float32)[None, :, None]
    assert not tray.matches(np.clip(frame * lamp, 0, 255).astype(np.uint8))  # a lamp from one side
    assert not tray.matches(cv2.resize(frame, (w, w)))  # another camera mode


def test_saved_and_loaded_whole_and_damage_refused(tmp_path: Path) -> None:
    _, tray, _ = hard_tray()
    path = tmp_path / "empty.npz"
    tray.save(path)
    again = EmptyTray.load(path)
    assert np.array_equal(again.image, tray.image) and again.level == pytest.approx(tray.level)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(ValueError, match="not a whole empty-tray picture"):
        EmptyTray.load(path)
    flipped = bytearray(whole)
    flipped[len(flipped) // 2] ^= 0xFF
    path.write_bytes(bytes(flipped))
    with pytest.raises(ValueError):
        EmptyTray.load(path)
    with path.open("wb") as fh:
        np.savez(fh, image=np.zeros((4, 4), np.uint8), level=np.float32(8))
    with pytest.raises(ValueError, match="no colour picture"):
        EmptyTray.load(path)


def test_a_moved_camera_is_told_by_the_trays_edges() -> None:
    """The wall's edge is where the reference has it, or the camera moved; plain felt cannot tell."""
    frame, tray, _ = hard_tray()
    h, w = frame.shape[:2]
    shift = np.float32([[1, 0, 30], [0, 1, 10]])
    assert not tray.moved(frame) and tray.matches(frame)
    assert tray.moved(cv2.warpAffine(frame, shift, (w, h), borderMode=cv2.BORDER_REFLECT))
    felt = EmptyTray.capture([render_scene([], SCENE, seed=100 + k)[0] for k in range(3)])
    plain = render_scene([RenderDie(3)], SCENE, seed=4)[0]
    assert not felt.moved(cv2.warpAffine(plain, shift, (w, h), borderMode=cv2.BORDER_REFLECT))
