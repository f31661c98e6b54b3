"""The four games played to the end on the tablet page, with every deck and variant option each game
has, watched at 1280x800 and 800x1280 at once: prompt, current player and every score on screen after
every input, axe-core on every state the pages pass through, no console error and no failed request.
Screenshots go to build/screenshots/tablet/, or to docs/tablet/ with TABLET_SHOTS_DOCS=1 (docs/tablet.md)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from play import (  # type: ignore[import-not-found]
    CincinnatiQuick,
    HeckmeckQuick,
    LasVegasQuick,
    LordsScripted,
    LordsVirtual,
    Strategy,
    Watch,
    play,
    shots_folder,
    start_game,
    unlock,
)
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
expect.set_options(timeout=20_000)
SHOTS = shots_folder()
SIZES = [(1280, 800), (800, 1280)]
PLAYERS = ["Anna", "Boris", "Carla"]


class Pages:
    """A landscape and a portrait tablet on one companion, with every console error and failed request."""

    def __init__(self, browser: Any, base: str) -> None:
        self.contexts = [browser.new_context(viewport={"width": w, "height": h}) for w, h in SIZES]
        self.pages = [c.new_page() for c in self.contexts]
        self.errors: list[str] = []
        self.refused: list[Any] = []  # failed responses, their bodies read when the test reports
        for page in self.pages:
            page.set_default_timeout(30_000)  # a shared, loaded CI machine: slow is not wrong
            page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
            page.on("response", lambda r: self.refused.append(r) if r.status >= 400 else None)
            page.goto(base)
            expect(page.get_by_test_id("connection")).to_have_text("live")

    def problems(self) -> list[str]:
        """Console errors, then each failed request with what the companion answered."""
        failed = [f"{r.status} {r.request.method} {r.url} {r.request.post_data or ''}: {body(r)}" for r in self.refused]
        return self.errors + failed

    def close(self) -> None:
        for c in self.contexts:
            c.close()


def body(response: Any) -> str:
    try:
        return str(response.text())[:300]
    except Exception as exc:  # the page moved on and the body is gone: say so rather than fail here
        return f"(body unreadable: {exc})"


@pytest.fixture
def tablets(browser: Any, companion: tuple[str, Table]) -> Iterator[Pages]:
    pages = Pages(browser, companion[0])
    yield pages
    pages.close()


# the phases each game shows in docs/tablet.md
DOC_PHASES = {
    "heckmeck": {"take", "decide", "over"},
    "lasvegas": {"stock", "place", "summary", "over"},
    "cincinnati": {"choose", "throw", "over"},
    "lordsofvegas": {"deal", "play", "summary", "over"},
}


def run(tablets: Pages, game: str, strategy: Strategy, options: dict[str, bool], name: str, driver: int,
        players: list[str] = PLAYERS, shots: bool = True) -> Watch:
    page = tablets.pages[driver]  # the deck options alternate which tablet the table taps on
    unlock(page)
    start_game(page, game, players, options)
    watch = Watch(tablets.pages, SHOTS if shots else None, name, phases=DOC_PHASES[game])
    watch.check(int(page.evaluate("Number(document.body.dataset.version)")))
    play(page, strategy, watch)
    for p in tablets.pages:
        expect(p.get_by_test_id("outcome")).to_be_visible()
    results = page.get_by_test_id("results")
    expect(results).to_be_visible()
    expect(page.get_by_test_id("ranking").locator("li")).to_have_count(len(players))
    expect(page.get_by_test_id("chart").locator("canvas").first).to_be_attached()
    expect(page.get_by_test_id("rounds").locator("tbody tr").first).to_be_visible()
    expect(page.get_by_test_id("game-length")).to_contain_text("The game took")
    assert not watch.violations, "\n".join(watch.violations)
    assert not tablets.problems(), "\n".join(tablets.problems())
    return watch


def test_heckmeck_to_the_end_then_rematch(tablets: Pages) -> None:
    strategy = HeckmeckQuick()
    watch = run(tablets, "heckmeck", strategy, {}, "heckmeck", driver=0)
    assert strategy.stops >= 2, "a turn was given up with the two-tap Stop here"
    page = tablets.pages[0]
    # the whole game is in the history, searchable by player
    page.get_by_test_id("results").get_by_role("button", name="Close").click()
    expect(page.get_by_test_id("results")).to_be_hidden()
    page.get_by_test_id("history-button").click()
    page.get_by_test_id("history-player").select_option("1")
    log = page.get_by_test_id("log")
    expect(log.locator("li").first).to_contain_text("Boris")
    texts = log.locator("li").all_inner_texts()
    assert len(texts) > 10 and all("Boris" in t for t in texts), texts[:5]
    page.get_by_test_id("history-search").fill("took")
    expect(log.locator("li").first).to_contain_text("took")
    texts = log.locator("li").all_inner_texts()
    assert all("Boris" in t and "took" in t for t in texts), texts[:5]
    page.get_by_test_id("history").get_by_role("button", name="Close").click()
    expect(page.get_by_test_id("history")).to_be_hidden()
    page.get_by_test_id("show-results").click()
    expect(page.get_by_test_id("results")).to_be_visible()
    page.get_by_test_id("rematch").click()
    expect(page.get_by_test_id("waiting")).to_contain_text("Anna: roll 8 dice")
    expect(page.locator(".score-card")).to_have_count(3)
    assert watch.states > 50


def test_heckmeck_short_variant_to_the_end(tablets: Pages) -> None:
    strategy = HeckmeckQuick(2)
    run(tablets, "heckmeck", strategy, {"short_variant": True}, "heckmeck-short", driver=1, shots=False)
    assert tablets.pages[0].evaluate("currentGame().scoreboard.short_variant") is True
    assert strategy.stops >= 2


@pytest.mark.parametrize("virtual", [False, True], ids=["physical-deck", "virtual-deck"])
def test_las_vegas_to_the_end(tablets: Pages, virtual: bool) -> None:
    """The physical deck with the rules' hidden money; the virtual deck with neutral dice and
    everyone's money shown (the setup's "Show everyone's money")."""
    options = {"virtual_deck": virtual, "neutral_dice": virtual, "money_open": virtual}
    strategy = LasVegasQuick()
    run(tablets, "lasvegas", strategy, options, f"lasvegas-{'virtual' if virtual else 'physical'}",
        driver=int(virtual), shots=not virtual)
    in_thousands = {t for t in strategy.money_shown if t.endswith("k")}
    assert bool(in_thousands) == virtual, f"money on the score strip: {sorted(strategy.money_shown)[:8]}"
    assert in_thousands != {"0k"} or not virtual, "the money shown grew during the game"
    # rounds 1 to 3 paid out on a summary card the table dismissed; round 4's payout is in the results
    assert len(strategy.summaries) == 3, strategy.summaries


TIE_ON_MONEY = r"tie on money; (no money cards to break it|biggest cards: \d+ × \d+k(, \d+ × \d+k)*)"


@pytest.mark.parametrize("virtual", [False, True], ids=["physical-deck", "virtual-deck"])
def test_cincinnati_to_the_end(tablets: Pages, virtual: bool) -> None:
    run(tablets, "cincinnati", CincinnatiQuick(3), {"virtual_deck": virtual},
        f"cincinnati-{'virtual' if virtual else 'physical'}", driver=int(virtual), players=PLAYERS,
        shots=not virtual)
    # a tie on money is explained by the money cards that break it, or says that none can
    rows = tablets.pages[int(virtual)].get_by_test_id("ranking").locator("li")
    money = rows.locator(".rank-main").all_inner_texts()
    ties = 0
    for i, amount in enumerate(money):
        why = rows.nth(i).locator(".rank-tiebreak").all_inner_texts()
        if money.count(amount) > 1:
            ties += 1
            assert why and re.fullmatch(TIE_ON_MONEY, why[0]), why
        else:
            assert not why, why
    assert virtual or ties == 2, money  # the physical deck's game ends with two players tied on $15,000


def test_lords_of_vegas_physical_deck_multi_player_rolls_and_a_laid_off_bet(tablets: Pages) -> None:
    strategy = LordsScripted()
    run(tablets, "lordsofvegas", strategy, {"virtual_deck": False, "lay_off": True}, "lordsofvegas", driver=0)
    assert strategy.multi_rolls == 2, "the reorganize roll and the boss tie were both entered on the pad"
    assert strategy.bets == 1, "a bet was made on the gamble form"
    assert not strategy.plan, f"the scripted moves were all made: {strategy.plan} left"
    # the whole history: the game runs on until End of Game can come up, past the view's last 40 entries
    log = tablets.pages[0].evaluate(
        "async () => (await (await fetch(`/api/games/${currentGame().id}/history`)).json())"
        ".entries.map((e) => e.text).join('\\n')")
    assert "lays half the bet off to the bank" in log and "rolls" in log, log[-600:]
    # each of the three scripted draws paid the marked lots: a summary card, dismissed (more draws follow
    # until End of Game, which lies in the last quarter of the deck, can come up)
    assert len(strategy.summaries) > 3 and all("marked lot" in s for s in strategy.summaries[:3]), strategy.summaries


def test_lords_of_vegas_virtual_deck(tablets: Pages) -> None:
    strategy = LordsVirtual()
    run(tablets, "lordsofvegas", strategy, {"virtual_deck": True}, "lordsofvegas-virtual", driver=1, shots=False)
    assert strategy.summaries and all(s.lower().startswith("draw ") for s in strategy.summaries)
