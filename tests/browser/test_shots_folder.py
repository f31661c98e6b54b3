"""A test run leaves the checkout as it was: the whole-game tests' screenshots go where git ignores them,
and rewrite the pictures of docs/tablet.md only when asked (``TABLET_SHOTS_DOCS=1``). No browser here."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess

import pytest
from play import DOC_SHOTS, ROOT, shots_folder  # type: ignore[import-not-found]


def test_a_test_run_writes_its_screenshots_outside_the_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    games = importlib.import_module("test_games_tablet")
    assert shots_folder() == games.SHOTS  # the whole-game tests take the folder from here
    monkeypatch.delenv("TABLET_SHOTS_DOCS", raising=False)
    folder = shots_folder()
    assert folder.is_relative_to(ROOT / "build") and not folder.is_relative_to(ROOT / "docs")


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_ignores_the_screenshots_of_a_test_run() -> None:
    inside = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=ROOT, capture_output=True, text=True)
    if inside.stdout.strip() != "true":
        pytest.skip("not a git checkout")
    shot = shots_folder({}) / "heckmeck-take-landscape.jpg"
    assert subprocess.run(["git", "check-ignore", "-q", str(shot)], cwd=ROOT).returncode == 0


def test_the_docs_pictures_are_refreshed_only_when_asked() -> None:
    assert shots_folder({"TABLET_SHOTS_DOCS": "1"}) == DOC_SHOTS == ROOT / "docs" / "tablet"
    assert shots_folder({"TABLET_SHOTS_DOCS": "0"}) != DOC_SHOTS
    shown = re.findall(r"\]\(tablet/([^)]+)\)", (ROOT / "docs" / "tablet.md").read_text())
    assert shown and all((DOC_SHOTS / name).exists() for name in shown)  # what the refresh rewrites
