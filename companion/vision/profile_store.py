"""The table's own profile, kept on disk and grown from every roll the table confirms.

The daemon reads with it and, each time a roll is entered, adds the dice of the reading that roll
came from, labelled with the faces the table entered (its corrections included). Only a reading that
matches the entered roll die for die is learnt from: a roll typed in while the camera still showed
the previous one must not teach the reader wrong faces.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.store.atomic_file import remove_file, replace_file
from companion.vision.profile_adapt import Profile
from companion.vision.profile_build import add_background, add_confirmed, add_pip_windows
from companion.vision.reader import DiceReader
from companion.vision.reading import Reading

log = logging.getLogger(__name__)

MAX_PATCHES = 800  # the oldest are dropped beyond this: retraining the last layer stays well under a second
MOST_CORRECTED = 0.5  # a roll that differs from the reading in more than this share of dice is not learnt


class TableProfile:
    """A profile file that grows with confirmed rolls; ``profile`` is what the reader uses."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.profile = Profile()
        if self.path.exists():
            try:
                self.profile = Profile.load(self.path)
            except Exception as exc:  # a damaged file: read without it, and say so; it is replaced on the next roll
                log.warning("dice profile %s unreadable, starting afresh: %s", self.path, exc)

    def learn(self, reader: DiceReader, frame: Any, reading: Reading, faces: Sequence[int | str], *,
              most_corrected: float = MOST_CORRECTED, background: bool = False) -> int:
        """Add the reading's dice labelled with the entered ``faces`` (in the reading's order) and save;
        returns how many dice were learnt (0 when the roll does not match the reading).
        ``most_corrected``: 1.0 when the faces were given die by die on this very reading (the guided
        calibration), so that dice the reader gets mostly wrong, the ones most worth learning, are learnt.
        ``background``: every die in view is in the reading (the whole set rolled, its count known), so
        windows away from them are learnt as "not a die" too, and windows on their pips as "side" (not a
        top face). Not for a game's roll: dice set aside may lie in view."""
        if frame is None or len(faces) != len(reading.dice) or not faces:
            return 0
        changed = sum(1 for d, f in zip(reading.dice, faces, strict=True) if str(d.value) != str(f))
        if changed > most_corrected * len(faces):
            return 0
        # A new profile, swapped in whole: the camera thread may be reading with the old one meanwhile.
        old = self.profile
        grown = Profile(list(old.patches), list(old.labels), old.die_size, list(old.views), old.tail, old.tail_base,
                        old.marks)
        for die, face in zip(reading.dice, faces, strict=True):
            add_confirmed(grown, reader, frame, die, face)
        if background:
            dice = [(d.center, float(d.box[2] - d.box[0])) for d in reading.dice]
            add_pip_windows(grown, reader, frame, dice)
            add_background(grown, reader, frame, dice)
        if len(grown) > MAX_PATCHES:
            keep = slice(len(grown) - MAX_PATCHES, None)
            grown = Profile(grown.patches[keep], grown.labels[keep], grown.die_size, grown.views[keep], grown.tail,
                            grown.tail_base, grown.marks)
        if grown.marks:
            grown.prepare_marks(reader.classifier)
        self._save(grown)
        self.profile = grown
        return len(faces)

    def forget(self) -> bool:
        """Start afresh (a new dice set at the table); True when a saved profile was deleted. The empty
        profile is swapped in before the file goes, so a read meanwhile uses one or the other."""
        self.profile = Profile()
        return remove_file(self.path)

    def _save(self, profile: Profile) -> None:
        """Written beside the final file and moved over it: a power cut leaves the old profile or the new."""
        replace_file(self.path, profile.save)
