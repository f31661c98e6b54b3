"""Dice vision: find dice in a camera frame, read their top faces, learn the table's own dice.

Modules, one job each:

- ``render``: a synthetic dice-tray renderer (mock camera, edge-case tests, symbol faces).
- ``segment``: classical die finding (background model, colour and edge cues).
- ``pips``: classical pip counting on one die crop.
- ``colour``: die body colour names.
- ``classifier``: the small face classifier run by ``cv2.dnn`` from a shipped ONNX file.
- ``profile``: labelled crops of the table's own dice and nearest-neighbour adaptation.
- ``reader``: ``read_dice(frame)`` combines the above into a ``Reading``.
- ``settle``: report a reading only once the dice have stopped moving.
- ``tray``: printable ArUco tray sheet and perspective correction.
- ``annotate``: the annotated view the tablet shows.
- ``evaluate``: scoring against YOLO labels (``companion dice eval``).
"""

COLOURS: tuple[str, ...] = ("white", "black", "red", "blue", "green", "yellow", "other")
"""Body colour names the reader reports."""

FACES: tuple[int | str, ...] = (1, 2, 3, 4, 5, 6, "worm")
"""Top-face values in class order: class k is face k+1, class 6 is the symbol face."""
