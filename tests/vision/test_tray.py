"""The printable marker sheet and finding the tray from it."""

import cv2
import numpy as np

from companion.vision.tray import find_tray, make_tray_sheet


def test_sheet_markers_are_found_through_a_perspective(tmp_path):
    sheet = make_tray_sheet(tmp_path / "tray.png", dpi=100)
    assert (tmp_path / "tray.png").stat().st_size > 1000
    h, w = sheet.shape
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[60, 40], [900, 70], [880, 650], [40, 620]])
    warp = cv2.getPerspectiveTransform(src, dst)
    frame = cv2.warpPerspective(cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR), warp, (960, 700),
                                borderValue=(255, 255, 255))
    tray = find_tray(frame)
    assert tray is not None
    # A 40 mm marker at 100 dpi is ~157 px on paper; the warp scales by about 0.85-0.9.
    assert 110 < tray.marker_px < 170
    assert 40 < tray.die_px < 70
    top = tray.top_down(frame)
    assert top.shape[0] > 100 and top.shape[1] > 100
    assert tray.mask(frame.shape).any()


def test_no_markers_no_tray():
    assert find_tray(np.full((200, 200, 3), 128, np.uint8)) is None
