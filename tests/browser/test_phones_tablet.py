"""Each player's own phone, in the browser: three phones (390x844) join their seats from the tablet's
seat panel (two by the QR code's link, one by typing the code), make Cincinnati's secret choices at
the same time while the tablet enters the throws, to the end of the game; and a Las Vegas game with
money face down where each phone shows its own banknotes only."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from play import CincinnatiQuick, LasVegasQuick, shots_folder, start_game, step, unlock  # type: ignore[import-not-found]
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = pytest.mark.browser
NAMES = ["Ann", "Bob", "Cy"]
PHONE = {"width": 390, "height": 844}


def wait_until(test: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def shot(page: Any, name: str) -> None:
    folder = shots_folder()
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.jpg"), type="jpeg", quality=70)


def invite_phones(tablet: Any, shots: str | None = None) -> list[tuple[str, str]]:
    """The tablet's seat panel: a code per seat; (link, code) for each."""
    tablet.get_by_test_id("phones-button").click()
    for seat in range(len(NAMES)):
        tablet.get_by_test_id(f"seat-invite-{seat}").click()
        expect(tablet.get_by_test_id(f"seat-code-{seat}")).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
    expect(tablet.locator("#dlg-phones svg")).to_have_count(len(NAMES))
    if shots:
        for size in ({"width": 1280, "height": 800}, {"width": 800, "height": 1280}):
            tablet.set_viewport_size(size)
            shot(tablet, f"{shots}-{'landscape' if size['width'] > size['height'] else 'portrait'}")
        tablet.set_viewport_size({"width": 1280, "height": 800})
    seats = [(tablet.get_by_test_id(f"seat-link-{s}").text_content() or "",
              tablet.get_by_test_id(f"seat-code-{s}").inner_text()) for s in range(len(NAMES))]
    tablet.locator("#dlg-phones").get_by_role("button", name="Close").click()
    return seats


def join_phones(browser: Any, base: str, seats: list[tuple[str, str]]) -> list[Any]:
    phones = []
    for seat, (link, code) in enumerate(seats):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        phone = context.new_page()
        phone.set_default_timeout(10_000)
        errors: list[str] = []
        phone.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        phone.on("response", lambda r, errors=errors: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        if seat < 2:
            phone.goto(link)  # what scanning the QR code opens
        else:
            phone.goto(base + "/phone")
            phone.get_by_test_id("phone-code").fill(code.lower())
            phone.get_by_test_id("phone-join-button").click()
        expect(phone.get_by_test_id("phone-name")).to_have_text(NAMES[seat])
        assert "/phone/" not in phone.url, "the seat's key leaves the address bar"
        phone.errors = errors
        phones.append(phone)
    return phones


def caught_up(page: Any, table: Table) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version || 0) >= v", arg=table.version)


def test_three_phones_choose_at_once_while_the_tablet_enters_the_throws(browser: Any, companion: Any) -> None:
    base, table = companion
    table.rng = random.Random(2)
    tablet = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    tablet.set_default_timeout(10_000)
    tablet.goto(base)
    unlock(tablet)
    start_game(tablet, "cincinnati", NAMES, {"virtual_deck": True})
    phones = join_phones(browser, base, invite_phones(tablet, shots="phones-seats"))
    rng, strategy, rounds, checked = random.Random(4), CincinnatiQuick(seed=5), 0, False
    picks: list[int] = []
    for _ in range(400):
        game = table.view()["game"]
        if game["outcome"] is not None:
            break
        if game["awaiting"]["kind"] != "secret":
            caught_up(tablet, table)
            before = table.version
            if not step(tablet, strategy):
                break
            wait_until(lambda before=before: table.version > before)
            continue
        rounds += 1
        for phone in phones:
            expect(phone.get_by_test_id("phone-turn")).to_contain_text("Your turn")
            expect(phone.locator("[data-testid^=phone-option-]").first).to_be_visible()
            assert int(phone.evaluate("document.body.dataset.nudged || 0")) >= rounds, "a nudge each round"
        if not checked:  # two choose at once; the third phone and the tablet see only that they chose
            for phone in phones[:2]:
                phone.locator("[data-testid^=phone-option-]").last.click(no_wait_after=True)
            wait_until(lambda: sum(p["chosen"] for p in table.view()["game"]["scoreboard"]["players"]) == 2)
            for phone in phones[:2]:
                expect(phone.get_by_test_id("phone-private")).to_contain_text("You chose table C")
                expect(phone.get_by_test_id("phone-turn")).to_contain_text("Waiting for the others")
            expect(phones[2].get_by_test_id("phone-private")).to_be_hidden()
            expect(phones[2].get_by_test_id("phone-prompt")).to_contain_text("nobody sees it")
            caught_up(tablet, table)
            assert "table C" not in tablet.get_by_test_id("board").inner_text()
            shot(phones[0], "phones-chosen-phone")
            shot(phones[2], "phones-turn-phone")
            phones[2].locator("[data-testid^=phone-option-]").first.click()
            checked = True
        else:  # all three at once
            picks = [rng.randrange(phone.locator("[data-testid^=phone-option-]").count()) for phone in phones]
            for phone, pick in zip(phones, picks, strict=True):
                phone.locator(f"[data-testid^=phone-option-] >> nth={pick}").click(no_wait_after=True)
        try:
            wait_until(lambda: table.view()["game"]["awaiting"]["kind"] != "secret")
        except AssertionError:
            print([p["chosen"] for p in table.view()["game"]["scoreboard"]["players"]],
                  [ph.errors for ph in phones], [ph.locator("#choices").inner_html() for ph in phones], picks)
            raise
    game = table.view()["game"]
    assert game["outcome"] is not None and rounds >= 3, f"played {rounds} rounds of choices"
    devices = {e["device"] for e in table.log}
    assert {"phone:0", "phone:1", "phone:2"} <= devices or rounds >= 3
    for phone in phones:
        expect(phone.get_by_test_id("phone-turn")).to_contain_text("No game in play")
        assert not phone.errors, phone.errors


def test_face_down_money_shows_on_its_own_phone_only(browser: Any, companion: Any) -> None:
    base, table = companion
    table.rng = random.Random(3)
    tablet = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    tablet.set_default_timeout(10_000)
    tablet.goto(base)
    unlock(tablet)
    start_game(tablet, "lasvegas", NAMES, {"virtual_deck": True, "money_open": False})
    phones = join_phones(browser, base, invite_phones(tablet))
    strategy = LasVegasQuick(seed=6)
    timeline = table.timeline
    assert timeline is not None
    while timeline.state.round < 3:
        caught_up(tablet, table)
        before = table.version
        assert step(tablet, strategy)
        wait_until(lambda before=before: table.version > before)
    state = timeline.state
    assert sum(state.money(s) for s in range(3)) > 0
    for seat, phone in enumerate(phones):
        caught_up(phone, table)
        notes = phone.get_by_test_id("phone-notes")
        expect(phone.get_by_test_id("phone-private")).to_contain_text("Only you see this")
        shown = [int(t.replace("$", "").replace(",", "")) for t in notes.locator(".phone-note").all_inner_texts()]
        assert shown == list(state.won[seat]), f"seat {seat}: its own notes, as the state holds them"
        text = phone.locator("body").inner_text()
        for other in range(3):
            if other != seat and state.money(other) and state.money(other) != state.money(seat):
                assert f"${state.money(other):,}" not in text, "no other player's money"
    shot(phones[0], "phones-lasvegas-phone")
    tablet_text = tablet.get_by_test_id("scores").inner_text()
    for seat in range(3):
        assert f"{state.money(seat) // 1000}k" not in tablet_text or state.money(seat) == 0
    for phone in phones:
        assert not phone.errors, phone.errors


def test_a_phone_speaks_its_players_language(browser: Any, companion: Any) -> None:
    base, table = companion
    tablet = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    tablet.goto(base)
    unlock(tablet)
    start_game(tablet, "cincinnati", NAMES, {"virtual_deck": True})
    seats = invite_phones(tablet)
    for locale, words in (("de-DE", "Du bist dran"), ("it-IT", "Tocca a te"), ("ru-RU", "Ваш ход")):
        phone = browser.new_context(viewport=PHONE, locale=locale).new_page()
        phone.goto(seats[0][0])
        expect(phone.get_by_test_id("phone-turn")).to_contain_text(words)
        phone.context.close()


def test_a_withdrawn_phone_says_so_and_asks_for_a_code(browser: Any, companion: Any) -> None:
    base, table = companion
    tablet = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    tablet.goto(base)
    unlock(tablet)
    start_game(tablet, "cincinnati", NAMES, {"virtual_deck": True})
    phones = join_phones(browser, base, invite_phones(tablet))
    tablet.get_by_test_id("phones-button").click()
    tablet.get_by_test_id("seat-withdraw-1").click()
    expect(tablet.get_by_test_id("seat-invite-1")).to_be_visible()
    phones[1].locator("[data-testid^=phone-option-]").first.click()
    expect(phones[1].get_by_test_id("phone-refusal")).to_contain_text("withdrawn")
    expect(phones[1].get_by_test_id("phone-code")).to_be_visible()
    shot(phones[1], "phones-withdrawn-phone")
    assert Path(shots_folder()).exists()
