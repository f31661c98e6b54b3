"""The face classifier's patch sources: each one's number in the patches' ``src`` array and its licence.

One table for both ends: ``make_patches.py`` numbers the patches with it, ``train_faces.py`` turns the
numbers back into names and licences for ``faces.json`` (CC BY 4.0 asks the rune55 credit of any model
trained on those photos). Rendered dice stay 2, as before the newer sets came, so that older
``--drop-source`` commands leave out what they did.
"""

from __future__ import annotations

SOURCES: dict[str, tuple[int, str]] = {
    "nell-byler-d6": (0, "BSD-3-Clause (c) 2019 Nell Byler"),
    "matteop65-webcam": (1, "MIT (c) 2021 Matteo Anthony Penlington"),
    "rendered": (2, "MIT (companion/vision/render.py)"),
    "rune55-gray-closeups": (3, "rune55 dice dataset (Roboflow Universe, rune-zkmvl), CC BY 4.0"),
    "chase-casino-crops": (4, "MIT, chaseelliottpatterson/dice-reader"),
    "scenes": (5, "MIT (training/scenes, rendered by Mitsuba 3)"),
}
RUNE55_CREDIT = "Trained in part on the rune55 dice dataset (Roboflow Universe, rune-zkmvl), CC BY 4.0."
BY_NUMBER: dict[int, str] = {number: name for name, (number, _) in SOURCES.items()}
