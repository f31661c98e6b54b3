"""The face classifier's patches from generated trays (``make_patches.py --scenes DIR``,
``training/scenes/read.py``), on a tiny scenes folder written here: no Mitsuba needed."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.vision.render import RenderDie, render_dice  # noqa: E402
from training.scenes.describe import describe  # noqa: E402
from training.scenes.read import CUT, ScenesError, parse, scenes, worm_set  # noqa: E402


def seeds_by_worm() -> tuple[int, int]:
    """A scene seed whose set wears the worm, and one whose does not (the generator draws 8% worm sets)."""
    worm = [s for s in range(100_000, 100_200) if any(lk.marks == "worm" for lk in describe(s, 320, 240).looks)]
    plain = [s for s in range(100_000, 100_200) if s not in worm]
    assert worm and plain
    return worm[0], plain[0]


def write_scene(folder: Path, name: str, faces: list[int], seed: int = 0) -> list[tuple[int, float, float, float]]:
    """A 320 x 240 tray with ``faces`` drawn on it and its label file in the generator's 7 columns;
    returns each die's (value, x, y, side)."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    frame, drawn = render_dice([RenderDie(f, "white") for f in faces], seed=seed, size=(320, 240), die_size=40)
    cv2.imwrite(str(folder / "images" / f"{name}.jpg"), frame)
    lines, dice = [], []
    for d in drawn:
        x, y, side = d.center[0], d.center[1], d.size
        lines.append(f"{int(d.face) - 1} {x / 320:.6f} {y / 240:.6f} {side / 320:.6f} {side / 240:.6f} "
                     f"{x / 320:.6f} {y / 240:.6f}\n")
        dice.append((int(d.face), x, y, side))
    (folder / "labels" / f"{name}.txt").write_text("".join(lines))
    return dice


def test_labels_give_the_top_face_centre_value_and_size() -> None:
    text = "2 0.5 0.5 0.1 0.2 0.55 0.45\n0 0.25 0.5 0.1 0.1\n"
    (v1, x1, y1, s1), (v2, x2, y2, s2) = parse(text, 320, 240)
    assert (v1, round(x1, 3), round(y1, 3), round(s1, 3)) == (3, 176.0, 108.0, 48.0)  # the top face, not the box
    assert (v2, x2, y2, s2) == (1, 80.0, 120.0, 32.0)  # five columns: the box's centre


def test_a_six_is_the_worm_only_in_a_worm_set() -> None:
    worm, plain = seeds_by_worm()
    assert worm_set(f"s{worm}", 320, 240) and not worm_set(f"s{plain}", 320, 240)
    assert not worm_set("tray7", 320, 240)  # not a generated scene's name
    line = "5 0.5 0.5 0.1 0.1 0.5 0.5\n"
    assert parse(line, 320, 240, worm=True)[0][0] == "worm"
    assert parse(line, 320, 240, worm=False)[0][0] == 6


def test_a_die_whose_top_face_the_frame_cuts_teaches_no_face() -> None:
    dice = parse("3 0.02 0.5 0.1 0.1 0.01 0.5\n3 0.5 0.5 0.1 0.1 0.5 0.5\n", 320, 240)
    assert [d[0] for d in dice] == [CUT, 4]


@pytest.mark.parametrize("text", ["1 0.5 0.5\n", "7 0.5 0.5 0.1 0.1\n", "1 0.5 a 0.1 0.1\n"])
def test_a_bad_label_line_is_refused_with_its_file(tmp_path: Path, text: str) -> None:
    write_scene(tmp_path, "s1", [2])
    (tmp_path / "labels" / "s1.txt").write_text(text)
    with pytest.raises(ScenesError, match="s1.txt"):
        list(scenes(tmp_path))


def test_a_folder_without_renders_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ScenesError, match="images/ and labels/"):
        list(scenes(tmp_path))
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    with pytest.raises(ScenesError, match="no .jpg"):
        list(scenes(tmp_path))


def test_patches_on_generated_trays_teach_their_faces(tmp_path: Path) -> None:
    from training.make_patches import BG, SIDE, scene_patches

    worm, plain = seeds_by_worm()
    write_scene(tmp_path, f"s{plain}", [3, 6], seed=1)
    write_scene(tmp_path, f"s{worm}", [6, 2], seed=2)
    (tmp_path / "images" / "s9.jpg").write_bytes(b"")  # a render stopped half-written: skipped
    assert [name for name, _, _ in scenes(tmp_path)] == sorted([f"s{plain}", f"s{worm}"])

    p = scene_patches(tmp_path, np.random.default_rng(0), jitter=4)
    y = np.array(p.y)
    x = np.stack(p.x)
    assert x.shape[1:] == (32, 32, 3) and len(p.off) == len(y) == len(p.has_off)
    # faces 3 and 2 and the plain set's 6 are taught; the worm set's 6 is the symbol face, not a 6
    assert {2, 1, 5, 6} <= set(y.tolist())
    assert {BG, SIDE} & set(y.tolist())
    assert not set(y.tolist()) - {-1, 0, 1, 2, 3, 4, 5, 6, BG, SIDE}
    plain_only = scene_patches(tmp_path, np.random.default_rng(0), jitter=4, limit=1)
    worm_first = sorted([f"s{plain}", f"s{worm}"])[0] == f"s{worm}"
    first = set(np.array(plain_only.y).tolist())
    assert (6 in first) == worm_first and (5 in first) != worm_first


def test_the_option_refuses_a_wrong_folder_before_cutting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from training import make_patches

    monkeypatch.setattr(sys, "argv", ["make_patches.py", "--out", str(tmp_path / "p.npz"), "--scenes",
                                      str(tmp_path / "nothing")])
    with pytest.raises(SystemExit) as e:
        make_patches.main()
    assert e.value.code == 2
    assert "images/ and labels/" in capsys.readouterr().err
    assert not (tmp_path / "p.npz").exists()
