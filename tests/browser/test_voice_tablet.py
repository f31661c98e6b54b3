"""A tablet speaks: with its voice switched on in its settings, the page hands the browser's speech
(a stub of ``speechSynthesis`` that records each request) the announcements of the kinds it chose, in the
tablet's own language, while a tablet in another language says the same in its own."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live import serve  # type: ignore[import-not-found]

from companion.config import Config, ServerConfig, StoreConfig
from companion.store.journal import Journal
from companion.table.session import Table
from companion.voice import start
from companion.web import create_app

pytestmark = pytest.mark.browser

STUB = """
window.__spoken = [];
window.__cancelled = 0;
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ""; this.volume = 1; } };
Object.defineProperty(window, "speechSynthesis", { value: {
  speak(u) {
    window.__spoken.push({ text: u.text, lang: u.lang, volume: u.volume });
    setTimeout(() => u.onend && u.onend(), 0);
  },
  cancel() { window.__cancelled += 1; },
  getVoices() { return []; },
} });
"""


@pytest.fixture
def voiced(tmp_path: Path) -> Iterator[tuple[str, Table]]:
    """A companion whose Pi stays silent ([voice] off): only the tablets speak."""
    config = Config(server=ServerConfig(pin="4321"), store=StoreConfig(data_dir=str(tmp_path)), mock=True)
    table = Table(Journal(tmp_path / "journal.sqlite3"), rng=random.Random(0))
    voice = start({}, language="en", mock=True, data_dir=tmp_path)
    table.subscribe(voice.observe)
    app = create_app(table, config=config, voice=voice)
    try:
        with serve(app) as base:
            yield base, table
    finally:
        voice.close()
        table.journal.close()


def tablet(browser: Any, base: str, lang: str, preset: str | None) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(STUB)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_function("() => document.body.dataset.version !== undefined")  # the first view is drawn (and heard)
    if preset is not None:
        page.get_by_test_id("settings-button").click()
        page.get_by_test_id("voice-on").check()
        page.get_by_test_id(f"voice-preset-{preset}").check()
        page.locator("#dlg-settings button[value=close]").click()
    return page


def spoken(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("window.__spoken"))


def test_each_tablet_says_the_table_in_its_own_language(browser: Any, voiced: tuple[str, Table]) -> None:
    base, table = voiced
    german = tablet(browser, base, "de", "essential")
    russian = tablet(browser, base, "ru", "quiet")
    silent = tablet(browser, base, "it", None)  # its voice is off (the default)
    table.new_game("heckmeck", ["Anna", "Benno"])
    german.wait_for_function("() => window.__spoken.length >= 1")
    table.submit({"type": "roll", "dice": [5, 5, 4, "worm", 1, 1, 2, 3]}, device="tablet")
    german.wait_for_function("() => window.__spoken.length >= 2")
    said = spoken(german)
    assert said[:2] == [
        {"text": "Anna ist dran.", "lang": "de", "volume": 0.8},
        {"text": "Anna würfelt: zwei Einsen, eine Zwei, eine Drei, eine Vier, zwei Fünfen und ein Wurm.",
         "lang": "de", "volume": 0.8},
    ]
    # the quiet preset says neither the turn nor the dice; the end of the game it would say, in Russian
    table.submit({"type": "take", "face": "worm"}, device="tablet")
    assert spoken(russian) == []
    assert spoken(silent) == []
    table.set_status("notice", {"text": {"msg": "{device}: {problem}", "params": {
        "device": "button:undo", "problem": {"msg": "There is nothing to undo.", "params": {}}}}, "at": 1.0})
    russian.wait_for_function("() => window.__spoken.length >= 1")
    assert spoken(russian) == [{"text": "Отменять нечего.", "lang": "ru", "volume": 0.8}]
    assert spoken(silent) == []


def test_a_new_tablet_does_not_say_what_was_announced_before_it_came(browser: Any, voiced: tuple[str, Table]) -> None:
    base, table = voiced
    table.new_game("heckmeck", ["Anna", "Benno"])
    table.submit({"type": "roll", "dice": [5, 5, 4, "worm", 1, 1, 2, 3]}, device="tablet")
    late = tablet(browser, base, "en", "everything")
    table.set_status("devices", {"camera": "simulated"})  # a view that carries the old announcements again
    table.submit({"type": "take", "face": "worm"}, device="tablet")
    late.wait_for_function("() => window.__spoken.length >= 1")
    texts = [s["text"] for s in spoken(late)]
    assert texts[0] == "Anna keeps a worm: 5 in all." and not any("rolls" in t for t in texts), texts
