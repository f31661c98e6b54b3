"""The four games on tablets in Russian, Italian and the pseudo-locale.

Each game is played to its end with random legal inputs (entered through the table, as the buttons and
the camera would), while a tablet page in the language under test follows over the event stream. At
states along the way (and in the new-game, settings and results dialogs) the page is checked:

- in Russian and Italian, no English word of the catalogue's English side is on screen, apart from
  player names and proper names (the words both languages also use are found in their catalogues);
- in the pseudo-locale (every catalogued text accented and 40% longer) nothing is clipped or overflows,
  at 1280x800 and 800x1280. Text that never went through a catalogue would show plain there too, so
  it is also looked for.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.i18n.catalogs import entries, read_catalog
from companion.i18n.render import localize
from companion.table.session import Table
from companion.table.simulate import random_input

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLAYERS = ["Anna", "Boris", "Carla"]
GAMES: dict[str, dict[str, Any]] = {
    "heckmeck": {},
    "lasvegas": {"virtual_deck": True, "neutral_dice": True},
    "cincinnati": {"virtual_deck": True},
    "lordsofvegas": {"virtual_deck": True},
}
SAMPLES = 6  # page states checked per game, spread over the whole game
PROPER = {
    *PLAYERS,
    "vegas", "table", "companion", "heckmeck", "cincinnati", "lords",  # the app's and the games' names
    "atlantic", "ballroom", "caesar", "albion", "sphinx", "tivoli", "pioneer",  # printed names
    "strip",  # The Strip, a place
}
WORD = re.compile(r"[A-Za-z][a-z]{3,}")


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(re.sub(r"\{\w+\}", " ", text))}


def english_words(lang: str) -> set[str]:
    """Words of the English side that the language's own catalogue never uses."""
    english: set[str] = set()
    for msgid, plural, _ in entries(read_catalog("en")):
        english |= words(msgid) | (words(plural) if plural else set())
    native: set[str] = set()
    for _, _, forms in entries(read_catalog(lang)):
        for form in forms:
            native |= words(form)
    return english - native - {p.lower() for p in PROPER}


def all_english_words() -> set[str]:
    """For the pseudo-locale every catalogued word is accented: any plain one skipped the catalogue."""
    english: set[str] = set()
    for msgid, plural, _ in entries(read_catalog("en")):
        english |= words(msgid) | (words(plural) if plural else set())
    return english - {p.lower() for p in PROPER}


def play(table: Table, game: str, seed: int) -> Iterator[int]:
    """Play ``game`` to its end; yields after each of the sampled inputs (the input's number)."""
    table.new_game(game, PLAYERS, GAMES[game])
    rng = random.Random(seed)
    inputs: list[Any] = []
    timeline = table.timeline
    assert timeline is not None
    state = timeline.rules.setup(PLAYERS, GAMES[game])
    # a dry run first, so the samples can be spread over the whole game
    probe = random.Random(seed)
    total = 0
    while (action := random_input(game, timeline.rules, state, probe)) is not None and total < 3000:
        state, _ = timeline.rules.apply(state, action)
        total += 1
    marks = {total * (k + 1) // SAMPLES for k in range(SAMPLES)}
    for n in range(1, total + 1):
        live = table.timeline
        assert live is not None
        if live.rules.outcome(live.state) is not None:
            break
        action = random_input(game, live.rules, live.state, rng)
        if action is None:
            break
        if live.rules.awaiting(live.state).source == "companion":
            continue  # the table draws its own cards (virtual deck)
        table.submit(live.rules.action_to_json(action), device="test")
        inputs.append(action)
        if n in marks:
            yield n
    if table.timeline is not None and table.timeline.rules.outcome(table.timeline.state) is not None:
        yield -1


def caught_up(page: Any, table: Table, lang: str) -> None:
    """Wait until the page shows the table's current prompt (in its language)."""
    game = localize(table.view(), lang)["game"]
    expect(page.get_by_test_id("waiting")).to_contain_text(game["awaiting"]["prompt"][:40])


def visible_text(page: Any) -> str:
    return str(page.evaluate("() => document.body.innerText"))


def clipped(page: Any) -> list[str]:
    """Elements whose text is cut off or runs out of its box, and a page wider than the screen."""
    return list(
        page.evaluate(
            """() => {
          const out = [];
          if (document.documentElement.scrollWidth > window.innerWidth + 1)
            out.push(`page ${document.documentElement.scrollWidth}px wide in ${window.innerWidth}px`);
          for (const el of document.querySelectorAll('body *')) {
            if (!el.offsetParent || !el.textContent.trim()) continue;
            if (el.closest('dialog:not([open])') || el.closest('[hidden]')) continue;
            const hasText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
            if (!hasText) continue;
            const s = getComputedStyle(el);
            const clips = s.textOverflow === 'ellipsis' || ['hidden', 'clip'].includes(s.overflowX);
            if (clips && el.scrollWidth > el.clientWidth + 1)
              out.push(`${el.tagName.toLowerCase()}.${el.className}: "${el.textContent.trim().slice(0, 60)}"`);
            const r = el.getBoundingClientRect();
            if (r.right > window.innerWidth + 1 && s.position !== 'fixed')
              out.push(`off screen: ${el.tagName.toLowerCase()}.${el.className}: ` +
                       `"${el.textContent.trim().slice(0, 60)}"`);
          }
          return out;
        }"""
        )
    )


def check(page: Any, lang: str, foreign: set[str], where: str, problems: list[str]) -> None:
    text = visible_text(page)
    if lang == "qps":
        problems += [f"{where}: {p}" for p in clipped(page)]
        # pseudo text is bracketed; a catalogued English word left bare never went through _()
        bare = words(text) & foreign
        problems += [f"{where}: not through the catalogue: {sorted(bare)[:8]}"] if bare else []
    else:
        found = words(text) & foreign
        if found:
            problems.append(f"{where}: English on a {lang} page: {sorted(found)[:10]}")


def dialogs(page: Any, lang: str, foreign: set[str], where: str, problems: list[str]) -> None:
    for _ in range(2):
        page.keyboard.press("Escape")  # a summary or results card left open
    for button, dialog in (("settings-button", "settings"), ("btn-new", "new-game")):
        target = page.get_by_test_id(button) if button != "btn-new" else page.locator("#btn-new")
        target.click()
        expect(page.get_by_test_id(dialog)).to_be_visible()
        check(page, lang, foreign, f"{where}, {dialog} dialog", problems)
        page.keyboard.press("Escape")
        expect(page.get_by_test_id(dialog)).to_be_hidden()


CASES = [("ru", 1280, 800), ("it", 800, 1280), ("qps", 1280, 800), ("qps", 800, 1280)]


@pytest.mark.parametrize(("lang", "width", "height"), CASES, ids=[f"{c[0]}-{c[1]}x{c[2]}" for c in CASES])
def test_four_games_read_in_the_tablet_s_language(
    browser: Any, companion: tuple[str, Table], lang: str, width: int, height: int
) -> None:
    base, table = companion
    foreign = all_english_words() if lang == "qps" else english_words(lang)
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    problems: list[str] = []
    try:
        page.goto(f"{base}/?lang={lang}")
        dialogs(page, lang, foreign, "no game", problems)
        for seed, game in enumerate(GAMES):
            for step in play(table, game, seed):
                if step == -1:
                    page.wait_for_timeout(300)
                    check(page, lang, foreign, f"{game} at the end", problems)
                    page.keyboard.press("Escape")
                    continue
                caught_up(page, table, lang)
                check(page, lang, foreign, f"{game} after input {step}", problems)
        dialogs(page, lang, foreign, "after the games", problems)
    finally:
        context.close()
    assert not errors, errors
    assert not problems, "\n".join(problems[:30])
