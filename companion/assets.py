"""Where the non-Python parts live: the tablet's ``web/`` folder and the game data in ``seeds/``.

In a checkout (the editable install of the README) they sit beside the package; a wheel installed on
the Pi carries them under ``<venv>/share/vegas-table-companion/`` (pyproject's data-files).
"""

from __future__ import annotations

import sys
from pathlib import Path

SHARE = "vegas-table-companion"


def asset_dir(name: str) -> Path:
    """The folder ``web`` or ``seeds``, from the checkout or from the installed share directory."""
    for base in (Path(__file__).resolve().parents[1], Path(sys.prefix) / "share" / SHARE):
        folder = base / name
        if folder.is_dir():
            return folder
    raise FileNotFoundError(f"the companion's {name}/ folder is missing; reinstall the package")
