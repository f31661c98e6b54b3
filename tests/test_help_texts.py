"""The rules at hand (web/static/help/<lang>.json): every language holds every game's every section, each
translated, and none copies a rulebook's sentence (the rulebooks sit beside the repository, in
../shared/seeds, when they are there)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
HELP = ROOT / "web" / "static" / "help"
SEEDS = ROOT.parent / "shared" / "seeds"
LANGS = ("en", "it", "de", "ru")
GAMES = ("heckmeck", "lasvegas", "cincinnati", "lordsofvegas")
# the parts app/help.js opens by what the table is doing (sectionFor), so each must exist
OPENED = {
    "heckmeck": {"turn", "keep", "claim", "failed", "end"},
    "lasvegas": {"round", "neutral", "turn", "payout", "end"},
    "cincinnati": {"cards", "choose", "throws", "chips", "clearing", "duels", "end"},
    "lordsofvegas": {"setup", "draw", "actions", "reorganize", "bosses", "gamble", "end"},
}
# the variants and options each game offers, each with its own part
VARIANTS = {"heckmeck": {"short"}, "lasvegas": {"neutral", "deck"}, "cincinnati": {"three"},
            "lordsofvegas": {"two", "deck", "gamble"}}


def load(lang: str) -> dict[str, Any]:
    return dict(json.loads((HELP / f"{lang}.json").read_text(encoding="utf-8")))


def ids(texts: dict[str, Any]) -> dict[str, list[str]]:
    return {game: [s["id"] for s in sections] for game, sections in texts.items()}


def test_english_covers_each_game_its_steps_and_variants() -> None:
    en = ids(load("en"))
    assert sorted(en) == sorted(GAMES)
    for game in GAMES:
        assert OPENED[game] | VARIANTS[game] <= set(en[game]), game
        assert len(en[game]) == len(set(en[game])), f"{game}: a section id twice"


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_language_has_every_section_translated(lang: str) -> None:
    en, other = load("en"), load(lang)
    assert ids(other) == ids(en)
    for game in GAMES:
        for mine, theirs in zip(en[game], other[game], strict=True):
            assert theirs["title"].strip() and theirs["title"] != mine["title"], (lang, game, mine["id"])
            assert len(theirs["text"]) == len(mine["text"]), (lang, game, mine["id"])
            for a, b in zip(mine["text"], theirs["text"], strict=True):
                assert b.strip() and b != a, (lang, game, mine["id"])


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def runs(text: str, n: int) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rulebooks are not beside this checkout")
@pytest.mark.parametrize("lang", LANGS)
def test_no_sentence_is_taken_from_a_rulebook(lang: str) -> None:
    books = set().union(*(runs(p.read_text(encoding="utf-8", errors="replace"), 8) for p in SEEDS.glob("0*.txt")))
    for game, sections in load(lang).items():
        for s in sections:
            for para in s["text"]:
                shared = runs(para, 8) & books
                assert not shared, (lang, game, s["id"], [" ".join(r) for r in shared])


def test_the_words_are_checked_against_the_rulebooks() -> None:
    """The copy check can fail: a sentence lifted from a rulebook shares an eight-word run with it."""
    if not SEEDS.is_dir():
        pytest.skip("the rulebooks are not beside this checkout")
    book = (SEEDS / "003_db1904f5a2c7c167.txt").read_text(encoding="utf-8", errors="replace")
    lifted = " ".join(words(book)[200:230])
    books = runs(book, 8)
    assert runs(lifted, 8) & books
