"""The rules at hand: the Help view opens at the part that matters for what the table is doing now (a
Cincinnati secret choice, a Lords of Vegas bet, a Heckmeck roll), in each of the four languages, from the
header and from beside the prompt; and the board rings what the last input changed."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from play import RUN_SHOTS, axe_problems, record_until, shots_folder, start_game, unlock  # type: ignore[import-not-found]
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = pytest.mark.browser

HELP = Path(__file__).resolve().parents[2] / "web" / "static" / "help"
SIZES = ({"width": 1280, "height": 800}, {"width": 800, "height": 1280})


def title(lang: str, game: str, section: str) -> str:
    texts = json.loads((HELP / f"{lang}.json").read_text(encoding="utf-8"))
    return next(s["title"] for s in texts[game] if s["id"] == section)


def close_dialogs(page: Any) -> None:
    page.evaluate("() => document.querySelectorAll('dialog[open]').forEach((d) => d.close())")


def opened_at(page: Any, lang: str, game: str, section: str) -> None:
    """The dialog is open on `game`, `section` is marked as now and is in view inside the dialog."""
    dlg = page.get_by_test_id("help")
    expect(dlg).to_be_visible()
    expect(dlg).to_have_attribute("data-game", game)
    now = page.locator(".help-section.here")
    expect(now).to_have_count(1)
    expect(now).to_have_attribute("data-section", section)
    expect(now.locator("h3")).to_have_text(title(lang, game, section))
    body = page.get_by_test_id("help-body").bounding_box()
    box = now.bounding_box()
    assert body["y"] - 1 <= box["y"] < body["y"] + body["height"], (box, body)


@pytest.mark.parametrize("lang", ["en", "it", "de", "ru"])
def test_a_secret_choice_opens_the_rules_on_choosing(page: Any, companion: tuple[str, Table], lang: str) -> None:
    base, table = companion
    table.open(table.import_record(record_until("cincinnati", ["Anna", "Benno", "Carla", "Dora"], 2,
                                                lambda aw: aw.kind == "secret")))
    for size in SIZES:
        page.set_viewport_size(size)
        page.goto(f"{base}/?lang={lang}")
        expect(page.get_by_test_id("help-now")).to_have_attribute("data-section", "choose")
        close_dialogs(page)
        page.get_by_test_id("help-now").click()
        opened_at(page, lang, "cincinnati", "choose")
        assert not axe_problems(page, f"rules {lang} {size}")  # contrast of the marked part included
        orient = "landscape" if size["width"] > size["height"] else "portrait"
        RUN_SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(RUN_SHOTS / f"help-cincinnati-choose-{lang}-{orient}.png"))
        if lang == "en":  # the picture docs/tablet.md shows
            shots_folder().mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shots_folder() / f"help-choose-{orient}.jpg"), type="jpeg", quality=70)
        page.get_by_test_id("help-close").click()
        expect(page.get_by_test_id("help")).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "it", "de", "ru"])
def test_a_bet_opens_the_rules_on_gambling_from_the_header(page: Any, companion: tuple[str, Table], lang: str) -> None:
    base, table = companion
    table.open(table.import_record(record_until("lordsofvegas", ["Anna", "Benno", "Carla"], 4,
                                                lambda aw: aw.dice is not None and aw.dice.reason == "gamble")))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{base}/?lang={lang}")
    expect(page.get_by_test_id("help-now")).to_have_attribute("data-section", "gamble")
    close_dialogs(page)
    page.get_by_test_id("help-button").click()
    opened_at(page, lang, "lordsofvegas", "gamble")
    RUN_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(RUN_SHOTS / f"help-lordsofvegas-gamble-{lang}-landscape.png"))
    # the other games' rules are a choice away, with nothing marked as now (the table is not there)
    page.get_by_test_id("help-game").select_option("heckmeck")
    expect(page.get_by_test_id("help")).to_have_attribute("data-game", "heckmeck")
    expect(page.locator(".help-section")).to_have_count(7)
    expect(page.locator(".help-section.here")).to_have_count(0)
    expect(page.locator("#help-failed h3")).to_have_text(title(lang, "heckmeck", "failed"))


def test_the_part_follows_the_game_and_the_board_rings_what_changed(page: Any, companion: tuple[str, Table]) -> None:
    base, _ = companion
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base)
    page.get_by_test_id("help-button").click()  # no game yet: the rules are still there to read
    expect(page.get_by_test_id("help")).to_be_visible()
    expect(page.locator(".help-section").first).to_be_visible()
    page.get_by_test_id("help-close").click()
    unlock(page)
    start_game(page, "heckmeck", ["Ann", "Bob"])
    help_now = page.get_by_test_id("help-now")
    expect(help_now).to_have_attribute("data-section", "turn")
    for face in (1, 1, 2, 3, 4, 5, 5, "worm"):
        page.locator(f'#faces button[data-face="{face}"]').click()
    page.get_by_test_id("submit-roll").click()
    expect(help_now).to_have_attribute("data-section", "keep")
    help_now.click()
    opened_at(page, "en", "heckmeck", "keep")
    page.get_by_test_id("help-close").click()
    page.get_by_test_id("options").get_by_role("button", name="Keep 2 x 5 (+10)").click()
    expect(help_now).to_have_attribute("data-section", "claim")
    # keeping dice changed the kept row on the board, and nothing else there: it alone is ringed
    expect(page.locator("#board [data-testid='kept']")).to_have_class(re.compile(r"\bchanged\b"))
    expect(page.locator("#board .changed")).to_have_count(1)
    expect(page.locator("#scores .changed")).to_have_count(0)
    RUN_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(RUN_SHOTS / "changed-heckmeck-landscape.png"))
    expect(page.locator("#board .changed")).to_have_count(0, timeout=10_000)  # a short highlight


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_payout_summary_opens_how_a_casino_pays(page: Any, companion: tuple[str, Table], lang: str) -> None:
    base, table = companion
    table.open(table.import_record(record_until("lasvegas", ["Ann", "Bob", "Cy"], 3,
                                                lambda aw: aw.kind == "card" and aw.prompt.params.get("round") == 2)))
    page.set_viewport_size({"width": 800, "height": 1280})
    page.goto(f"{base}/?lang={lang}")
    expect(page.get_by_test_id("summary")).to_be_visible()  # round 1's payout, not yet dismissed here
    page.get_by_test_id("summary-help").click()
    opened_at(page, lang, "lasvegas", "payout")
    page.get_by_test_id("help-close").click()
    expect(page.get_by_test_id("summary")).to_be_visible()  # the summary is still there to read


def test_placing_dice_rings_that_casino_alone(page: Any, companion: tuple[str, Table]) -> None:
    base, table = companion
    table.open(table.import_record(record_until("lasvegas", ["Ann", "Bob"], 3, lambda aw: aw.kind == "choice")))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base)
    close_dialogs(page)
    unlock(page)
    face = table.view()["game"]["awaiting"]["options"][0]["action"]["face"]
    page.get_by_test_id("options").locator("button.option").first.click()
    # the casino that got the dice, and nothing else: the casinos the roll could have gone to lose their
    # mark, which is no change of the board
    expect(page.locator("#board .changed")).to_have_count(1)
    expect(page.locator(f"#board [data-testid='casino-{face}']")).to_have_class(re.compile(r"\bchanged\b"))
    assert not axe_problems(page, "a ringed casino")
