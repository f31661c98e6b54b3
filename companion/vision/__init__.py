"""Dice vision: find dice in a camera frame, read their top faces, learn the table's own dice.

Modules, one job each, in the order a frame meets them (camera -> reader -> rig -> session):

- ``exposure``: brightens a dim frame before anything looks at it.
- ``segment``: classical die finding (tray model, colour and detail cues) -> die-sized windows.
- ``crops``: cutting the fixed-size patches the classifier and the profile use.
- ``classifier``: the small face classifier run by ``cv2.dnn`` from the shipped ONNX file.
- ``pips``: classical pip counting on one die, the classifier's second witness.
- ``colour``: die body colour names.
- ``order``: fast medians and percentiles for the above.
- ``reader``: ``read_dice(frame)`` combines the above into a ``Reading``, in stages: ``read_face`` (a
  window read by the network), ``find`` and ``find_with_detector`` (the dice found), ``decide`` (the
  two readers combined, confidence, unsure); ``reading`` (what comes out) and ``tuning`` (the numbers).
- ``settle``: one reading per roll, once the dice have stopped moving.
- ``annotate``: the annotated view the tablet shows.
- ``tray``: printable ArUco tray sheet and perspective correction.

Learning the table's own dice:

- ``profile_adapt``: the ``Profile`` (confirmed dice as labelled patches) and the classifier's last
  layer retrained on it.
- ``face_tail``, ``face_fit``, ``face_teach``: the classifier's last two layers in numpy, refitted on
  the profile, and kept only when they read the table's held-back rolls better (no torch).
- ``numpy_fit``: what that refit shares with the detector's (``head_fit``): unfolding, Adam.
- ``profile_build``: patches for a profile from labelled photos or one confirmed die at a time.
- ``profile_store``: the daemon's profile file, grown from every roll the table confirms.
- ``retrain_network``: the whole network retrained deeper on a grown profile (torch, offline).
- ``retrain_job``: which model the daemon reads with, and the background job that runs the above.
- ``background_job``: one such job at a time in a child process, and whether its result still counts
  (shared with the detector's teaching, ``detector_job``).

Tools: ``render`` (synthetic dice-tray frames: mock camera, edge cases, symbol faces; a die is drawn
by ``render_die``, the tray by ``render_tray``), ``evaluate``
(scoring against YOLO labels, ``companion dice eval``) and ``cli`` (``companion dice ...``).
"""

COLOURS: tuple[str, ...] = ("white", "black", "red", "blue", "green", "yellow", "other")
"""Body colour names the reader reports."""

FACES: tuple[int | str, ...] = (1, 2, 3, 4, 5, 6, "worm")
"""Top-face values in class order: class k is face k+1, class 6 is the symbol face."""
