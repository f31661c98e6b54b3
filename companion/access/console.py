"""``companion pin set``: a new table PIN from the console, the way back when the kept PIN is damaged
or forgotten. Whoever has the console owns the table, so no old PIN is asked for."""

from __future__ import annotations

import getpass
import time
from pathlib import Path
from typing import TextIO

from companion.access.pin import FILE, TablePin, usable, write_pin


def read_new_pin(stream: TextIO) -> str:
    """The new PIN: asked twice, hidden, on a terminal; the first line of ``stream`` otherwise."""
    if stream.isatty():
        first = getpass.getpass("new table PIN (4-12 digits): ")
        if getpass.getpass("the same again: ") != first:
            raise ValueError("the two PINs differ; nothing was changed")
        return first
    return stream.readline().strip()


def set_pin(folder: Path, stream: TextIO) -> str:
    """Keep the PIN read from ``stream`` in ``folder`` (a damaged PIN file is moved aside, not
    deleted); returns what to tell the owner. ValueError (nothing changed) for a PIN that cannot be."""
    new = usable(read_new_pin(stream))
    notes = []
    damage = TablePin("", folder).damage
    if damage:
        aside = folder / f"{FILE}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
        (folder / FILE).replace(aside)
        notes.append(f"the damaged PIN file was moved to {aside}")
    write_pin(folder, new)
    notes.append("a running companion takes it at the next PIN a tablet sends; every tablet enters it again")
    return f"the table PIN is set ({folder / FILE}); " + "; ".join(notes)
