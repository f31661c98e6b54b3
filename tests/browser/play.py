"""Whole games played on the tablet page, as a table would: taps on what the page shows, nothing else.

Reusable: the drivers take Playwright pages and a ``Strategy`` per game, never the API or the mock
hardware buttons, so other tests (other languages, a pseudo-locale) can run them again. Every page
given is checked after every input: the prompt, the current player and every score on screen, the
page itself not scrolled; ``Watch`` adds an axe-core check of every state the pages pass through
(a state seen before, the very same DOM, is not checked twice) and screenshots.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games import get_rules
from companion.games.base import Awaiting
from companion.store.record import Header, Timeline, check_entry
from companion.table.simulate import simulated_lines

PIN = "4321"
ROOT = Path(__file__).resolve().parents[2]
DOC_SHOTS = ROOT / "docs" / "tablet"  # the pictures docs/tablet.md shows
RUN_SHOTS = ROOT / "build" / "screenshots" / "tablet"  # git-ignored


def shots_folder(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the whole-game tests put the phases docs/tablet.md shows: build/ on every run, so a test run
    leaves the checkout as it was; docs/tablet/ only when ``TABLET_SHOTS_DOCS=1`` asks to refresh them."""
    return DOC_SHOTS if environ.get("TABLET_SHOTS_DOCS") == "1" else RUN_SHOTS

# What must be inside the viewport, and the page not scrolled, in every state of the table view.
FITS_JS = """() => {
  const W = window.innerWidth, H = window.innerHeight;
  const out = [];
  const inside = (el, what) => {
    if (!el) { out.push(what + ": missing"); return; }
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)
      out.push(`${what} at ${[r.left, r.top, r.right, r.bottom].map(Math.round)} of ${W}x${H}`);
  };
  inside(document.getElementById("waiting"), "prompt");
  const current = document.querySelectorAll(".score-card.current");
  current.forEach((c, i) => inside(c, "current player " + i));
  document.querySelectorAll(".score-card").forEach((c, i) => inside(c, "score card " + i));
  document.querySelectorAll(".score-card .big").forEach((b, i) => {
    inside(b, "score " + i);
    const px = parseFloat(getComputedStyle(b).fontSize);
    if (px < 48) out.push(`score ${i} is ${px}px`);
    const card = b.closest(".score-card"), box = card.getBoundingClientRect();
    const cut = b.getBoundingClientRect().right - (box.right - parseFloat(getComputedStyle(card).borderRightWidth));
    if (cut > 0.5) out.push(`score ${i} "${b.textContent}" cut by ${Math.round(cut)}px`);  // the card hides it
  });
  const g = window.currentGame && window.currentGame();
  const dlg = document.querySelector("dialog[open]");
  const kind = !g ? "none" : [g.scoreboard.phase || g.awaiting.kind, g.awaiting.kind,
    [...new Set(g.awaiting.options.map((o) => o.action.type))].sort().join(","), g.awaiting.dice ? "dice" : "",
    dlg ? dlg.id : "", g.awaiting.players.length > 1 ? "many" : ""].join("|");
  const doc = document.scrollingElement;
  if (doc.scrollHeight > H + 1) out.push(`page scrolls: ${doc.scrollHeight} > ${H}`);
  if (doc.scrollWidth > W + 1) out.push(`page scrolls sideways: ${doc.scrollWidth} > ${W}`);
  return { problems: out, current: current.length, kind, awaited: g ? g.awaiting.players.length : 0,
           over: !!document.querySelector('[data-testid="outcome"]:not([hidden])') };
}"""


def unlock(page: Any) -> None:
    from playwright.sync_api import expect

    page.get_by_test_id("pin-button").click()
    page.get_by_test_id("pin-input").fill(PIN)
    page.get_by_test_id("pin-ok").click()
    expect(page.get_by_test_id("pin-button")).to_contain_text("Unlocked")


def start_game(page: Any, game: str, players: Sequence[str], options: dict[str, bool] | None = None,
               first: int = 0, colours: Sequence[str] | None = None) -> None:
    """The New game dialog: the game, the players in seating order, their colours, options."""
    from playwright.sync_api import expect

    page.get_by_role("button", name="New game").click()
    page.get_by_test_id("new-game").select_option(game)
    names = page.get_by_test_id("player-name")
    while names.count() > len(players):
        page.locator("#new-players .player-field button").last.click()
    while names.count() < len(players):
        page.locator("#new-add").click()
    for i, name in enumerate(players):
        names.nth(i).fill(name)
    for i, colour in enumerate(colours or []):
        page.get_by_test_id("player-colour").nth(i).select_option(colour)
    for key, on in (options or {}).items():
        box = page.get_by_test_id(f"option-{key}")
        if on:
            box.check()
        else:
            box.uncheck()
    if page.get_by_test_id("new-first").is_visible():
        page.get_by_test_id("new-first").select_option(str(first))
    before = page.evaluate(ENTERED_JS)
    page.get_by_test_id("new-start").click()
    expect(page.locator("#dlg-new")).to_be_hidden()
    # the dialog closes before the new game's view arrives: wait for the game itself
    page.wait_for_function(f"e => ({ENTERED_JS})() !== e", arg=before)


# A fingerprint of the page as axe sees it: the whole DOM with the attributes that only the test or the
# page's version counter change taken out, and the values typed into fields (properties, not markup).
DOM_HASH_JS = """() => {
  let text = document.documentElement.outerHTML
    .replace(/ data-version="\\d+"/g, "").replace(/ data-pick="\\d+"/g, "").replace(/[?&]v=\\d+/g, "");
  for (const i of document.querySelectorAll("input, select")) {
    text += "|" + (i.type === "checkbox" ? i.checked : i.value);
  }
  let h1 = 0x811c9dc5, h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619) >>> 0;
    h2 = Math.imul(h2 + c, 2654435761) >>> 0;
  }
  return `${text.length}:${h1.toString(16)}:${h2.toString(16)}`;
}"""


@dataclass
class Watch:
    """Checks every page after every input: fits the screen, axe-core on every new DOM; screenshots."""

    pages: list[Any]
    shots: Path | None = None
    name: str = "game"
    axe_seen: set[str] = field(default_factory=set)
    violations: list[str] = field(default_factory=list)
    states: int = 0
    axe_runs: int = 0
    axe_skipped: int = 0
    phases: set[str] | None = None
    shot_kinds: set[str] = field(default_factory=set)
    shot_files: list[Path] = field(default_factory=list)

    def check(self, version: int) -> None:
        for page in self.pages:
            page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)
            fits = page.evaluate(FITS_JS)
            size = f"{page.viewport_size['width']}x{page.viewport_size['height']}"
            if fits["problems"] and os.environ.get("PLAY_DEBUG"):
                page.screenshot(path=f"/tmp/fail-{self.name}-{size}.png", full_page=True)
            assert not fits["problems"], f"{self.name} at {size}: {fits['problems']}"
            assert fits["current"] >= 1 or fits["over"] or not fits["awaited"], \
                f"{self.name} at {size}: nobody is shown as the current player"
            self.states += 1
            kind = fits["kind"]
            self.accessibility(page, f"{self.name} {size} {kind} (input {self.states})")
            if self.shots is not None:
                self.screenshot(page, size, kind)

    def accessibility(self, page: Any, where: str) -> None:
        """axe-core on the page as it is now, unless this very DOM (at this size) was checked already."""
        key = f"{page.viewport_size['width']}x{page.viewport_size['height']}:{page.evaluate(DOM_HASH_JS)}"
        stats = AXE_STATS.setdefault(self.name, [0, 0, 0.0])
        if key in self.axe_seen:
            self.axe_skipped += 1
            stats[1] += 1
            return
        self.axe_seen.add(key)
        self.axe_runs += 1
        stats[0] += 1
        started = time.perf_counter()
        self.violations += axe_problems(page, where)
        stats[2] += time.perf_counter() - started

    def screenshot(self, page: Any, size: str, kind: str) -> None:
        """The first sight of each phase in each orientation: the phases in ``phases`` go to ``shots``
        (the docs), every phase to $TABLET_SHOTS_ALL if set (for looking at them all)."""
        orientation = "landscape" if page.viewport_size["width"] > page.viewport_size["height"] else "portrait"
        parts = kind.split("|")
        phase = parts[0] or "start"
        if len(parts) > 4 and parts[4] == "dlg-summary":
            phase = "summary"
        label = re.sub(r"[^a-z0-9-]+", "-", f"{self.name}-{phase}-{orientation}".lower())
        if label in self.shot_kinds:
            return
        self.shot_kinds.add(label)
        if self.shots is not None and (self.phases is None or phase in self.phases):
            self.shots.mkdir(parents=True, exist_ok=True)
            path = self.shots / f"{label}.jpg"
            page.screenshot(path=str(path), type="jpeg", quality=70)
            self.shot_files.append(path)
        everything = os.environ.get("TABLET_SHOTS_ALL")
        if everything:
            Path(everything).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(everything) / f"{label}.png"))


_AXE_SCRIPT: str | None = None
AXE_STATS: dict[str, list[float]] = {}
"""Per watched game: [axe-core checks run, states skipped as the very same DOM as one checked, seconds in axe]
(written at the end of the test session by tests/browser/conftest.py)."""

RUN_AXE_JS = """async () => {
  const r = await axe.run(document, { resultTypes: ["violations"] });
  return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target) }));
}"""


def axe_problems(page: Any, where: str) -> list[str]:
    """Serious and critical axe-core violations (contrast included) of the page as it is now. The
    axe-core script (from axe-playwright-python) is put in a page once, not before every check."""
    global _AXE_SCRIPT
    if _AXE_SCRIPT is None:
        from axe_playwright_python.sync_playwright import Axe

        _AXE_SCRIPT = str(Axe().axe_script)
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(_AXE_SCRIPT)
    return [f"{where}: {v['id']} ({v['impact']}) {v['targets']}" for v in page.evaluate(RUN_AXE_JS)]


# the open game and how many inputs it has had: changes with every input the table makes
ENTERED_JS = "() => { const g = window.currentGame && window.currentGame(); return g ? `${g.id}:${g.inputs}` : ''; }"


def version(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.version || 0)"))


# ---- strategies: what a player taps, read off the page -------------------------------------------


class Strategy:
    """Picks inputs from what the page offers. ``roll`` True: roll the dice rather than pick an option."""

    def __init__(self, seed: int = 1) -> None:
        self.rng = random.Random(seed)
        self.summaries: list[str] = []  # the text of each round summary the table dismissed

    def option(self, page: Any, labels: list[str], can_roll: bool, grid: bool = False) -> int | None:
        return 0

    def faces(self, faces: list[str], count: int, colour: str | None) -> list[str]:
        return [self.rng.choice(faces) for _ in range(count)]

    def card(self, page: Any, cards: list[str]) -> str:
        return cards[0]

    def secret(self, labels: list[str]) -> int:
        return self.rng.randrange(len(labels))

    def before(self, page: Any) -> bool:
        """A chance to tap the board first (a Lords of Vegas lot); True if the page changed."""
        return False

    def act(self, page: Any) -> bool:
        """An input made on a form of the board instead of an option (a Lords of Vegas bet); True if made."""
        return False


def enter_dice(page: Any, strategy: Strategy, seen: Callable[[], None] = lambda: None) -> None:
    box = page.locator("#dice-entry")
    rows = page.locator("#faces .colour-row")
    if rows.count():
        for i in range(rows.count()):
            row = rows.nth(i)
            colour = row.get_attribute("data-colour")
            n = int(row.get_attribute("data-count") or "0")
            faces = [b.get_attribute("data-face") for b in row.locator("button.face").all()]
            for face in strategy.faces(faces, n, colour):
                row.locator(f'button.face[data-face="{face}"]').click()
    else:
        count = int(box.get_attribute("data-count") or "0")
        faces = [b.get_attribute("data-face") for b in page.locator("#faces button.face").all()]
        for face in strategy.faces(faces, count, None):
            page.locator(f'#faces button.face[data-face="{face}"]').click()
    seen()  # the pad with the dice entered, before they are sent
    page.get_by_test_id("submit-roll").click()


READ_JS = """() => {
  const q = (s) => [...document.querySelectorAll(s)];
  const shown = (el) => !!el && el.checkVisibility();
  q("[data-pick]").forEach((b) => { delete b.dataset.pick; });
  const choices = "#options button.option, #options-late button.option, #options [data-testid=card-grid] button";
  return {
    over: shown(document.querySelector('[data-testid="outcome"]')) || !!document.querySelector("#dlg-end[open]"),
    summary: !!document.querySelector("#dlg-summary[open]"),
    secret: q('#options [data-testid^="secret-"]').length,
    cards: q("#options .card-button").map((b) => b.dataset.card),
    options: q(choices).filter(shown)
      .map((b, i) => { b.dataset.pick = String(i); return b.innerText; }),
    risky: q(choices).filter(shown)
      .map((b) => b.classList.contains("risky")),
    grid: !!document.querySelector("#options [data-testid=card-grid]"),
    dice: shown(document.getElementById("dice-entry")),
    folded: q("#options details.option-group:not([open])").length,
    prompt: document.getElementById("waiting").innerText,
  };
}"""


def step(page: Any, strategy: Strategy, seen: Callable[[], None] = lambda: None) -> bool:
    """One input through the page; False once the game is over. ``seen`` is called at each state the
    page passes through on the way (a dismissed summary, a tapped lot, an open group or secret dialog,
    an armed risky move, dice entered on the pad)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    now = page.evaluate(READ_JS)
    if now["over"]:
        return False
    if now["summary"]:
        strategy.summaries.append(page.locator("#dlg-summary").inner_text())
        page.get_by_test_id("summary-close").click()
        seen()
    if strategy.before(page):
        seen()
        now = page.evaluate(READ_JS)
    if strategy.act(page):
        return True
    if now["secret"]:
        page.locator('#options [data-testid^="secret-"]').first.click()
        seen()
        choices = page.locator("#secret-options button.option")
        labels = choices.all_inner_texts()
        choices.nth(strategy.secret(labels)).click()
        return True
    if now["cards"]:
        card = page.locator(f'#options .card-button[data-card="{strategy.card(page, now["cards"])}"]')
        confirm = card.get_attribute("data-confirm")  # read first: a tap draws the page again
        card.click()
        if confirm:
            seen()  # End of Game asks for a second tap
            card.evaluate("b => { if (!b.dataset.armed) b.click(); b.click(); }")
        return True
    labels = now["options"]
    pick = strategy.option(page, labels, now["dice"], now["grid"]) if labels else None
    if os.environ.get("PLAY_DEBUG"):
        print(now["prompt"], "|", labels[:12], "->", pick, "dice" if now["dice"] else "")
    if pick is None and not now["dice"] and now["folded"]:
        page.locator("#options details.option-group:not([open]) summary").first.click()
        seen()
        return step(page, strategy, seen)
    if pick is not None:
        button = page.locator(f'.play button[data-pick="{pick}"]')
        risky = now["risky"][pick]
        try:
            button.click(timeout=5_000)
        except PlaywrightTimeout:
            return step(page, strategy, seen)  # the page was drawn again between reading and tapping: read again
        if risky:
            seen()  # armed: "Tap again to confirm"
            # The second tap a turn-ending move asks for, arming it again first if the check outlasted
            # the arming (a loaded machine). One task in the page: the disarming timer cannot fall
            # between the look and the tap (the first tap was a real one, visibility checked).
            button.evaluate("b => { if (!b.dataset.armed) b.click(); b.click(); }")
        return True
    if now["dice"]:
        enter_dice(page, strategy, seen)
        return True
    if now["folded"]:
        page.locator("#options details.option-group:not([open]) summary").first.click()
        seen()
        return step(page, strategy, seen)
    raise AssertionError(f"nothing to do on the page: {now['prompt']}")


def play(driver: Any, strategy: Strategy, watch: Watch, limit: int = 600) -> int:
    """Play to the end from ``driver``; every watched page is checked after each input."""
    for inputs in range(limit):
        before = driver.evaluate(ENTERED_JS)
        if not step(driver, strategy, lambda: watch.check(version(driver))):
            return inputs
        # the input itself on the page, not merely a newer view (a camera or device status change
        # also makes one): a page read too early would offer the same move again, refused with 409
        driver.wait_for_function(f"e => ({ENTERED_JS})() !== e", arg=before)
        watch.check(version(driver))
    raise AssertionError(f"{watch.name}: not over after {limit} inputs")


# ---- the four games ------------------------------------------------------------------------------


class HeckmeckQuick(Strategy):
    """Eight worms: 40 and the best tile, so the game is short. Every fourth turn four worms and four
    5s instead: the worms are kept, then the turn is given up with the two-tap "Stop here"."""

    def __init__(self, seed: int = 1) -> None:
        super().__init__(seed)
        self.turn = 0
        self.stops = 0

    def faces(self, faces: list[str], count: int, colour: str | None) -> list[str]:
        if count == 8 and (self.turn + 1) % 4 == 0:
            return ["worm"] * 4 + ["5"] * 4
        return ["worm"] * count

    def option(self, page: Any, labels: list[str], can_roll: bool, grid: bool = False) -> int | None:
        for i, label in enumerate(labels):
            if label.startswith("Keep") and "worm" in label:
                self.turn += 1
                return i
        for i, label in enumerate(labels):
            if label.lstrip("★").startswith("Take") or "Steal" in label:
                return i
        for i, label in enumerate(labels):
            if label.startswith("Stop"):
                self.stops += 1
                return i
        return None if can_roll else 0


class LasVegasQuick(Strategy):
    """All of a player's dice on one face: one placement a turn. The biggest banknote first. What the
    score strip shows for each player's money is kept (digits, or a count of notes when it is hidden)."""

    def __init__(self, seed: int = 1) -> None:
        super().__init__(seed)
        self.turn = 0
        self.money_shown: set[str] = set()

    def before(self, page: Any) -> bool:
        self.money_shown.update(page.locator('[data-testid^="money-"]').all_inner_texts())
        return False

    def faces(self, faces: list[str], count: int, colour: str | None) -> list[str]:
        if colour is None or colour != "white":
            self.turn += 1
        return [faces[self.turn % len(faces)]] * count

    def option(self, page: Any, labels: list[str], can_roll: bool, grid: bool = False) -> int | None:
        return len(labels) - 1 if grid else 0


class CincinnatiQuick(Strategy):
    """Random throws; everyone passes the later throws and nobody buys one, so rounds are short."""

    def option(self, page: Any, labels: list[str], can_roll: bool, grid: bool = False) -> int | None:
        if grid:
            return self.rng.randrange(len(labels))
        for i, label in enumerate(labels):
            if "passes" in label or "Nobody" in label or "stops" in label:
                return i
        return 0


class LordsVirtual(Strategy):
    """The companion draws; each player ends the turn at once until End of Game is drawn."""

    def option(self, page: Any, labels: list[str], can_roll: bool, grid: bool = False) -> int | None:
        for i, label in enumerate(labels):
            if "End the turn" in label:
                return i
        return 0


class LordsScripted(Strategy):
    """A physical deck entered card by card, and a casino shared by two players reorganized, with a
    boss tie: the multi-player rolls entered on the pad. Then the third player bets at that casino on
    the gamble form, its boss lays half off (the lay-off variant) and the bet's dice are entered. Then
    End of Game is drawn."""

    DEAL = ["A1", "A2", "C1", "C5", "C9", "E1"]  # Anna, Boris, Carla, then each a second card

    def __init__(self, seed: int = 1) -> None:
        super().__init__(seed)
        self.cards = list(self.DEAL) + ["D1", "D2", "D3", "END"]
        self.colour = ""
        self.plan = ["build A1", "end", "build A2", "reorganize A1", "end", "gamble", "layoff", "end"]
        self.tie_done = False
        self.multi_rolls = 0
        self.rows = 0
        self.row = 0
        self.bets = 0

    def act(self, page: Any) -> bool:
        if not self.plan or self.plan[0] != "gamble":
            return False
        form = page.get_by_test_id("gamble-form")
        if not form.count():
            return False
        top = int(form.locator("select option").first.get_attribute("data-max") or "1")
        form.locator("input[type=number]").fill(str(min(2, top)))
        form.get_by_role("button", name="Gamble").click()
        self.plan.pop(0)
        self.bets += 1
        return True

    def card(self, page: Any, cards: list[str]) -> str:
        if self.cards == ["END"] and "END" not in cards:
            return next(c for c in cards if c not in self.DEAL)  # End of Game lies in the last quarter: draw on
        want = self.cards.pop(0) if self.cards else cards[0]
        return want if want in cards else next(c for c in cards if c == "END" or c not in self.DEAL)

    def before(self, page: Any) -> bool:
        self.rows, self.row = multi_player_rows(page), 0
        if not self.plan:
            return False
        action, _, lot = self.plan[0].partition(" ")
        if lot and page.locator(f'.lov-lot.focused[data-lot="{lot}"]').count() == 0 and \
                page.locator('#options button.option:has-text("End the turn")').count():
            page.locator(f'.lov-lot[data-lot="{lot}"]').click()
            return True
        return False

    def option(self, page: Any, labels: list[str], can_roll: bool, grid: bool = False) -> int | None:
        if self.plan:
            action, _, lot = self.plan[0].partition(" ")
            for i, label in enumerate(labels):
                text = label.lstrip("★")
                if action == "build" and text.startswith("Build") and f"on {lot}" in text and \
                        (not self.colour or f" {self.colour} " in f" {text} "):
                    self.colour = self.colour or text.split()[1]
                    self.plan.pop(0)
                    return i
                if action == "reorganize" and text.startswith("Reorganize") and lot in text:
                    self.plan.pop(0)
                    return i
                if action == "end" and "End the turn" in text:
                    self.plan.pop(0)
                    return i
                if action == "layoff" and "lays half off" in text:
                    self.plan.pop(0)
                    return i
        for i, label in enumerate(labels):
            if "won the roll-off" in label:
                return i
        for i, label in enumerate(labels):
            if "End the turn" in label:
                return i
        return 0

    def faces(self, faces: list[str], count: int, colour: str | None) -> list[str]:
        if self.rows >= 2:
            # several players' dice on one pad: first a tie (a boss tie follows), then a clear winner
            self.row += 1
            if not self.tie_done:
                self.tie_done = self.row == self.rows
                self.multi_rolls += self.tie_done
                return ["4"] * count
            if self.row == self.rows:
                self.multi_rolls += 1
            return ["6" if self.row == 1 else "2"] * count
        return [self.rng.choice(faces) for _ in range(count)]


def multi_player_rows(page: Any) -> int:
    return int(page.locator("#faces .colour-row").count())


Driver = Callable[..., Watch]


# Records cut at a chosen moment of a simulated game, for tests that start from a crowded state.
def names(aw: Awaiting[Any]) -> list[str]:
    return [type(o.action).__name__ for o in aw.options]


def record_until(game: str, players: list[str], seed: int, want: Callable[[Awaiting[Any]], bool]) -> list[str]:
    """A simulated game's record up to the first moment ``want`` picks out."""
    lines = list(simulated_lines(game, players, seed=seed))
    timeline = Timeline(get_rules(game), Header.from_json(json.loads(lines[0])))
    for i, line in enumerate(lines[1:], 1):
        if want(timeline.rules.awaiting(timeline.state)):
            return lines[:i]
        timeline.feed(check_entry(json.loads(line)))
    raise AssertionError("the simulated game never got there")
