"""The Pi installs a wheel, not the checkout: every file of the tablet's pages and the game data must be
named by pyproject's data-files, or the tablet on the Pi loads a page whose scripts answer 404."""

from __future__ import annotations

import tomllib
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[1]
SHARE = "share/vegas-table-companion/"


def shipped() -> dict[str, str]:
    """Each file the data-files' globs take, by its path in the checkout -> its folder under the venv."""
    table = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    out: dict[str, str] = {}
    for target, patterns in table.items():
        for pattern in patterns:
            for path in ROOT.glob(pattern):
                if path.is_file():
                    out[path.relative_to(ROOT).as_posix()] = target
    return out


def needed() -> list[str]:
    """What the daemon serves or reads from ``web/`` and ``seeds/`` (``companion/assets.py``)."""
    skip = {".pyc", ".map"}
    return sorted(p.relative_to(ROOT).as_posix() for folder in ("web", "seeds")
                  for p in (ROOT / folder).rglob("*")
                  if p.is_file() and p.suffix not in skip and not p.name.startswith(".")
                  and "__pycache__" not in p.parts)


def test_every_page_and_seed_file_is_installed_where_the_checkout_has_it() -> None:
    files = shipped()
    assert [f for f in needed() if f not in files] == []
    for path, target in files.items():  # each lands in the same folder under the share directory
        assert target == SHARE + str(PurePosixPath(path).parent), path


def test_the_tablets_module_imports_are_all_installed() -> None:
    """A page script's ``import ... from "./app/x.js"`` names a file the wheel carries."""
    import re

    files = shipped()
    static = ROOT / "web" / "static"
    found = 0
    for script in static.rglob("*.js"):
        for name in re.findall(r'^import[^"\n]*"(\.\.?/[^"]+)"', script.read_text(), re.M):
            target = (script.parent / name).resolve().relative_to(ROOT).as_posix()
            assert target in files, f"{script.relative_to(ROOT)} imports {name}, which no install carries"
            found += 1
    assert found > 20  # the tablet's modules were read


def test_every_file_the_package_carries_beside_its_code_is_installed() -> None:
    """The models, the catalogues, the photo split that ``companion dice eval --split`` reads."""
    import fnmatch
    import subprocess

    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["companion"]
    tracked = subprocess.run(["git", "ls-files", "companion"], cwd=ROOT, capture_output=True, text=True,
                             check=False).stdout.split()
    if not tracked:  # not a git checkout: what is on disk
        tracked = [p.relative_to(ROOT).as_posix() for p in (ROOT / "companion").rglob("*") if p.is_file()]
    beside = [p.removeprefix("companion/") for p in tracked if not p.endswith((".py", ".pyc"))]
    assert beside
    assert [p for p in beside if not any(fnmatch.fnmatch(p, g) for g in globs)] == []
