"""The companion speaks every language: whole simulated games in mock mode, per language, and what the
folder holds afterwards: every kind of announcement, no English word in another language, plurals right."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from voice_play import PLAYERS, folder_voice, new_table, play_game  # type: ignore[import-not-found]

from companion.games.cincinnati.hands import TABLE_NAMES
from companion.games.lordsofvegas.board import COMPANY
from companion.games.messages import placeholders
from companion.i18n.catalogs import LANGUAGES, entries, read_catalog
from companion.i18n.render import render
from companion.voice import KINDS
from companion.voice.words import highlighted, millions, speakable, worms_turn

SEEDS = {"heckmeck": 3, "lasvegas": 3, "cincinnati": 2, "lordsofvegas": 1}
WORD = re.compile(r"[^\W\d_]+")
PROPER = {w for name in (*TABLE_NAMES.values(), *COMPANY.values()) for w in WORD.findall(name)}
"""The games' printed names (Atlantic, Caesar's, Sphinx...): the same in every language."""


def heard(folder: Path) -> list[tuple[str, str]]:
    """``(kind, text)`` of every file the folder backend wrote, in order (``NNNN-kind-lang.txt``)."""
    return [(p.name.split("-")[1], p.read_text(encoding="utf-8").strip()) for p in sorted(folder.glob("*.txt"))]


@cache
def words_of(lang: str) -> frozenset[str]:
    """Every word the catalogue of ``lang`` writes (translations only, placeholders left out)."""
    found: set[str] = set()
    for msgid, plural, forms in entries(read_catalog(lang)):
        texts = [msgid, *(plural and [plural] or [])] if lang == "en" else forms
        for text in texts:
            for name in placeholders(text):
                text = text.replace("{" + name + "}", " ")
            found.update(w.lower() for w in WORD.findall(text))
    return frozenset(found)


def english_left(text: str, lang: str) -> list[str]:
    """Words of ``text`` that are English and nowhere in the catalogue of ``lang`` (names are no words, nor
    is a lot's letter: "E6")."""
    english = words_of("en") - words_of(lang)
    return [w for w in WORD.findall(text) if w not in PLAYERS and len(w) > 1 and w.lower() in english]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_whole_evening_is_spoken_in_the_tables_language(lang: str, tmp_path: Path) -> None:
    said: list[tuple[str, str]] = []
    for game, seed in SEEDS.items():
        table = new_table(tmp_path / game)
        voice, _ = folder_voice(tmp_path / game / "voice", lang)
        table.subscribe(voice.observe)
        play_game(table, voice, game, seed)
        voice.close()
        said += heard(tmp_path / game / "voice")
        assert said, game
    kinds = {kind for kind, _ in said}
    assert kinds == set(KINDS), f"never said: {set(KINDS) - kinds}"
    for kind, text in said:
        assert text and not re.search(r"\{\w+\}", text), (kind, text)
        assert not re.search(r"\d[,.\u00a0\u202f ]\d{3}\b", text), f"a grouped number is read digit by digit: {text}"
        if lang != "en":
            assert english_left(text, lang) == [], (kind, text)
        if lang == "ru":
            latin = [w for w in WORD.findall(text) if re.match(r"[A-Za-z]", w) and len(w) > 1]
            assert set(latin) <= {*PLAYERS, *PROPER}, text


def test_the_english_check_would_see_english() -> None:
    assert english_left("Casino 4 pays Benno 60000.", "de") == ["Casino", "pays"]
    assert english_left("Kasino 4 zahlt: Benno 60000.", "de") == []


PLURALS = {
    # worms_turn(n): 1, 2, 5, 21
    "en": ["Anna's turn, with one worm.", "Anna's turn, with 2 worms.", "Anna's turn, with 5 worms.",
           "Anna's turn, with 21 worms."],
    "it": ["È il turno di Anna, con un verme.", "È il turno di Anna, con 2 vermi.", "È il turno di Anna, con 5 vermi.",
           "È il turno di Anna, con 21 vermi."],
    "ru": ["Ходит Anna: 1 червяк.", "Ходит Anna: 2 червяка.", "Ходит Anna: 5 червяков.", "Ходит Anna: 21 червяк."],
    "de": ["Anna ist dran, mit einem Wurm.", "Anna ist dran, mit 2 Würmern.", "Anna ist dran, mit 5 Würmern.",
           "Anna ist dran, mit 21 Würmern."],
}
MILLIONS = {
    "en": ["one million dollars", "2 million dollars", "5 million dollars", "21 million dollars"],
    "it": ["un milione di dollari", "2 milioni di dollari", "5 milioni di dollari", "21 milioni di dollari"],
    "ru": ["один миллион долларов", "2 миллиона долларов", "5 миллионов долларов", "21 миллион долларов"],
    "de": ["eine Million Dollar", "2 Millionen Dollar", "5 Millionen Dollar", "21 Millionen Dollar"],
}


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_counts_are_said_with_the_right_plural_for_1_2_5_and_21(lang: str) -> None:
    assert [render(speakable(worms_turn("Anna", n)), lang) for n in (1, 2, 5, 21)] == PLURALS[lang]
    assert [render(speakable(millions(n)), lang) for n in (1, 2, 5, 21)] == MILLIONS[lang]
    options = [render(speakable(highlighted("X", 1, n)), lang) for n in (1, 2, 5, 21)]
    assert len(set(options)) == 4 and all(o.startswith("X") for o in options)
    assert "21" in options[3] and "5" in options[2]
