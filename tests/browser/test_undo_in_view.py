"""Undo and the last outcome stay on the screen, not in an inner scroll, in the crowded states the
tablet showed at a real table: Cincinnati's throw 2 with three pass buttons, Lords of Vegas' lists of
options and its card picker, at 1280x800 and 800x1280 and at every text size."""

from __future__ import annotations

from typing import Any

import pytest
from play import RUN_SHOTS, names, record_until  # type: ignore[import-not-found]
from playwright.sync_api import expect

from companion.table.session import Table

pytestmark = pytest.mark.browser

# Seen on the screen: inside the viewport and inside every scrolling box around it (a box that scrolls
# clips what is below its fold even when that part lies inside the viewport).
SEEN_JS = """ids => {
  const W = window.innerWidth, H = window.innerHeight, out = [];
  for (const id of ids) {
    const el = document.getElementById(id);
    const r = el.getBoundingClientRect();
    let box = { left: 0, top: 0, right: W, bottom: H };
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (/(auto|scroll|hidden)/.test(s.overflowY)) {
        const q = p.getBoundingClientRect();
        box = { left: Math.max(box.left, q.left), top: Math.max(box.top, q.top),
                right: Math.min(box.right, q.right), bottom: Math.min(box.bottom, q.bottom) };
      }
    }
    const at = (b) => [b.left, b.top, b.right, b.bottom].map(Math.round);
    if (r.height === 0 || r.top < box.top - 1 || r.bottom > box.bottom + 1
        || r.left < box.left - 1 || r.right > box.right + 1) out.push(`${id} at ${at(r)}, seen ${at(box)}`);
  }
  return out;
}"""


STATES = {
    "cincinnati-throw2-passes": ("cincinnati", ["Anna", "Benno", "Carla"], 4,
                                 lambda aw: aw.dice is not None and names(aw).count("Pass") >= 3),
    "lords-options": ("lordsofvegas", ["Anna", "Benno", "Carla"], 4, lambda aw: len(aw.options) >= 40),
    "lords-cards": ("lordsofvegas", ["Anna", "Benno", "Carla"], 4,
                    lambda aw: aw.card is not None and len(aw.options) == 0 and "draw" in str(aw.prompt.to_json())),
}


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
@pytest.mark.parametrize("state", list(STATES))
def test_undo_and_the_last_outcome_stay_in_view(browser: Any, companion: tuple[str, Table],
                                                size: tuple[int, int], state: str) -> None:
    base, table = companion
    game, players, seed, want = STATES[state]
    lines = record_until(game, players, seed, want)
    table.open(table.import_record(lines))
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(base)
    expect(page.get_by_test_id("last-event")).not_to_be_empty()
    page.evaluate("() => document.querySelectorAll('dialog[open]').forEach((d) => d.close())")  # a draw's summary
    problems = []
    for textsize in ("normal", "large", "larger"):
        page.evaluate("t => { document.documentElement.dataset.textsize = t; }", textsize)
        problems += [f"{textsize}: {p}" for p in page.evaluate(SEEN_JS, ["btn-undo", "last-event"])]
    RUN_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(RUN_SHOTS / f"undo-in-view-{state}-{size[0]}x{size[1]}-larger.png"))
    context.close()
    assert not problems, problems
