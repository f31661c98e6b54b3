"""Russian past tense and short adjectives carry a gender ("выбрал" / "выбрала"); the companion does not
know a player's, so every Russian text about one player is phrased around it: present tense ("берёт"),
the impersonal ("выпало"), or the thing done as subject ("стол выбран"). Masculine forms for every player
were what the table read before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.games import game_names
from companion.i18n.render import render
from companion.store.record import replay_lines
from companion.table.simulate import simulated_lines

LOCALES = Path(__file__).resolve().parents[1] / "companion" / "i18n" / "locales"
CATALOGUE = LOCALES / "ru" / "LC_MESSAGES" / "messages.po"
ONE_PLAYER = re.compile(r"\{(player|victim|opponent|boss|holder|gambler|name|winner)\}")
# words that end like a masculine past tense but agree with a noun, not with the player
# "стол" (table), "фулл" (full house); "ход ... не удался" (the turn failed)
NOUNS_AND_AGREEING = {"стол", "фулл", "удался"}
GENDERED = {"должен", "первым", "сам", "готов", "последним", "вторым", "рад"}


def gendered(text: str) -> list[str]:
    words = re.findall(r"[А-Яа-яЁё]+", text)
    return [w for w in words if (re.search(r"(л|лся)$", w) and w.lower() not in NOUNS_AND_AGREEING)
            or w.lower() in GENDERED]


def test_the_check_finds_a_masculine_verb() -> None:
    assert gendered("{player} выбрал стол.") == ["выбрал"]
    assert gendered("{player} заплатил фишку и должен бросать.") == ["заплатил", "должен"]
    assert gendered("{player}: стол выбран.") == []


def test_no_russian_text_about_one_player_has_a_gender() -> None:
    with CATALOGUE.open("rb") as f:
        catalogue = read_po(f)
    found = []
    for m in catalogue:
        forms = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        for text in forms:
            if text and ONE_PLAYER.search(text) and gendered(text):
                found.append((m.id, text, gendered(text)))
    assert not found, found


@pytest.mark.parametrize("game", sorted(game_names()))
def test_a_whole_game_reads_without_a_gender_in_russian(game: str) -> None:
    players = ["Anna", "Boris", "Clara", "Dima"][: 3 if game == "cincinnati" else 2]
    timeline = replay_lines(list(simulated_lines(game, players, seed=5)))
    texts = [render(e.text, "ru") for step in timeline.steps for e in step.events]
    assert texts
    bad = [t for t in texts if gendered(t)]
    assert not bad, bad[:5]
