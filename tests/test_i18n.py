"""The table's languages: catalogues in step with the code, messages as data, rendering per page.

The catalogue checks read the code with the same Babel extractor ``python -m companion.i18n.extract``
uses, so an id added to the engines, the templates or the page scripts without its catalogue entries
fails here, and so does an entry left behind after its id went away.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from companion.games import game_names, get_rules
from companion.games.base import Event
from companion.games.messages import Msg, english, is_msg_json, msg, nmsg, placeholders
from companion.i18n.catalogs import LANGUAGES, PSEUDO, entries, language, pseudo, read_catalog
from companion.i18n.extract import extract
from companion.i18n.render import localize, render
from companion.store.record import Timeline, replay_lines
from companion.table.simulate import simulated_lines

PLAYERS = {
    "heckmeck": ["Ann", "Bob", "Cy"],
    "lasvegas": ["Ann", "Bob", "Cy"],
    "cincinnati": ["Ann", "Bob", "Cy", "Dee"],
    "lordsofvegas": ["Ann", "Bob", "Cy"],
}
OPTIONS: dict[str, dict[str, Any]] = {
    "heckmeck": {},
    "lasvegas": {"neutral_dice": True},
    "cincinnati": {"virtual_deck": True},
    "lordsofvegas": {"virtual_deck": True},
}


@pytest.fixture(scope="module")
def code_ids() -> dict[str, str | None]:
    """Every id the code uses, with its plural id (None for a message without plural)."""
    out: dict[str, str | None] = {}
    for message in extract():
        if message.id:
            if isinstance(message.id, str):
                out[message.id] = None
            else:
                out[str(message.id[0])] = str(message.id[1])
    return out


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_each_catalogue_holds_exactly_the_ids_the_code_uses(lang: str, code_ids: dict[str, str | None]) -> None:
    have = {msgid: plural for msgid, plural, _ in entries(read_catalog(lang))}
    missing = sorted(set(code_ids) - set(have))
    extra = sorted(set(have) - set(code_ids))
    assert not missing, f"{lang}: ids used by the code but not in the catalogue (run python -m companion.i18n.extract)"
    assert not extra, f"{lang}: ids in the catalogue that no code uses: {extra[:5]}"
    wrong_plural = [i for i in code_ids if have[i] != code_ids[i]]
    assert not wrong_plural, f"{lang}: plural ids differ from the code's: {wrong_plural[:5]}"


def test_english_is_the_ids_themselves() -> None:
    for msgid, plural, forms in entries(read_catalog("en")):
        assert forms == ([msgid] if plural is None else [msgid, plural])


def test_a_message_is_json_and_back() -> None:
    message = nmsg("{n} worm", "{n} worms", 3, player="Ann", face=msg("worm"), amounts=[10_000, 20_000])
    data = json.loads(json.dumps(message.to_json()))
    assert is_msg_json(data) and Msg.from_json(data) == message
    assert english(message) == "3 worms" and str(nmsg("{n} worm", "{n} worms", 1)) == "1 worm"


def test_numbers_and_lists_are_written_the_locale_s_way() -> None:
    note = msg("Casino {casino} gets {amount} ({total} in all).", casino=3, amount=50_000, total=90_000)
    assert render(note, "en") == "Casino 3 gets 50,000 (90,000 in all)."
    assert "50.000" in render(note, "it") and "90.000" in render(note, "it")
    assert "50.000" in render(note, "de")
    assert "50\u00a0000" in render(note, "ru")
    names = msg("Duels: {players}, in this order.", players=["Ann", "Bob", "Cy"])
    assert render(names, "en") == "Duels: Ann, Bob, and Cy, in this order." == str(names)


def _events_and_texts(game: str, seed: int) -> tuple[Timeline, list[Any]]:
    lines = list(simulated_lines(game, PLAYERS[game], OPTIONS[game], seed=seed, undo_rate=0.05))
    timeline = replay_lines(lines)
    rules, state = timeline.rules, timeline.state
    texts: list[Any] = [e.text.to_json() for step in timeline.steps for e in step.events]
    outcome = rules.outcome(state)
    assert outcome is not None
    texts.append(outcome.text.to_json())
    return timeline, texts


@pytest.mark.parametrize("game", sorted(game_names()))
def test_every_message_of_a_whole_game_renders_in_every_language(game: str) -> None:
    """No placeholder left unfilled, and the console's English is the page's English."""
    _, texts = _events_and_texts(game, seed=11)
    for text in texts:
        assert str(Msg.from_json(text)) == render(text, "en")
        for lang in (*LANGUAGES, PSEUDO):
            shown = render(text, lang)
            assert shown and not re.search(r"\{\w+\}", shown), (lang, text, shown)


@pytest.mark.parametrize("game", sorted(game_names()))
def test_a_record_replays_identically_under_another_language(game: str) -> None:
    """The record and the journal hold inputs, never words: the same lines replay to the same game,
    whatever language the page that entered them used, and then read in any language."""
    lines = list(simulated_lines(game, PLAYERS[game], OPTIONS[game], seed=5))
    assert not any(is_msg_json(v) for line in lines for v in _values(json.loads(line)))
    first = replay_lines(lines)
    again = replay_lines(lines)
    assert first.rules.state_to_json(first.state) == again.rules.state_to_json(again.state)
    events = [[e.to_json() for e in s.events] for s in first.steps]
    assert events == [[e.to_json() for e in s.events] for s in again.steps]
    log = [e.text for s in first.steps for e in s.events]
    russian = [render(t, "ru") for t in log]
    italian = [render(t, "it") for t in log]
    assert len(russian) == len(italian) == len(log)
    board = first.rules.scoreboard(first.state)
    assert json.dumps(localize(board, "it"), ensure_ascii=False) != json.dumps(board)  # it holds messages
    assert not any(is_msg_json(v) for v in _values(localize(board, "ru")))


def _values(value: Any) -> list[Any]:
    out = [value]
    if isinstance(value, dict):
        for v in value.values():
            out += _values(v)
    elif isinstance(value, list):
        for v in value:
            out += _values(v)
    return out


def test_an_engine_writes_no_prose() -> None:
    """Every player-visible text out of an engine is a message (the type says so; this checks the data)."""
    rng = random.Random(2)
    for game in game_names():
        rules = get_rules(game)
        state = rules.setup(PLAYERS[game], OPTIONS[game])
        for _ in range(60):
            awaiting = rules.awaiting(state)
            assert isinstance(awaiting.prompt, Msg)
            assert all(isinstance(o.label, Msg) for o in awaiting.options)
            from companion.table.simulate import random_input

            action = random_input(game, rules, state, rng)
            if action is None:
                break
            state, events = rules.apply(state, action)
            assert all(isinstance(e, Event) and isinstance(e.text, Msg) for e in events)


def test_the_pseudo_locale_is_longer_and_keeps_placeholders() -> None:
    text = "{player}: roll {n} dice."
    fake = pseudo(text)
    assert len(fake) >= 1.4 * len(text) and placeholders(fake) == placeholders(text)
    assert "{player}" in fake and "ŕöĺĺ" in fake
    won = nmsg("{player} wins with {n} worm.", "{player} wins with {n} worms.", 2, player="Ann")
    assert render(won, PSEUDO).startswith("[Ann ŵîñš ŵîţĥ 2 ŵöŕɱš.")


def test_a_language_is_loaded_once() -> None:
    assert language("it") is language("it")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_message_is_translated_with_every_plural_form_and_the_same_parameters(lang: str) -> None:
    catalog = read_catalog(lang)
    problems = [(m.id, "fuzzy: gettext would skip it") for m in catalog if m.id and m.fuzzy]
    for msgid, plural, forms in entries(catalog):
        want = placeholders(msgid) | (placeholders(plural) if plural else set())
        if plural is not None and len(forms) != catalog.num_plurals:
            problems.append((msgid, f"{len(forms)} forms, not {catalog.num_plurals}"))
        for form in forms:
            if not form.strip():
                problems.append((msgid, "untranslated"))
            elif placeholders(form) - want or (want - {"n"}) - placeholders(form):
                problems.append((msgid, form))  # a form may leave the count out ("the last die"), nothing else
    assert not problems, f"{lang}: {problems[:5]}"


def test_russian_has_three_plural_forms_and_italian_and_german_two() -> None:
    worms = nmsg("{n} worm", "{n} worms", 1)
    assert [render(nmsg("{n} worm", "{n} worms", n), "ru") for n in (1, 2, 5, 21, 11)] == [
        "1 червяк",
        "2 червяка",
        "5 червяков",
        "21 червяк",
        "11 червяков",
    ]
    assert [render(nmsg("{n} worm", "{n} worms", n), "it") for n in (1, 2)] == ["1 verme", "2 vermi"]
    assert [render(nmsg("{n} worm", "{n} worms", n), "de") for n in (1, 2)] == ["1 Wurm", "2 Würmer"]
    assert render(worms, "en") == "1 worm"


def test_lords_of_vegas_money_is_in_millions_in_every_language() -> None:
    money = msg("${amount}M", amount=12)
    assert [render(money, lang) for lang in ("en", "it", "ru", "de")] == ["$12M", "$12M", "$12 млн", "$12 Mio."]


def test_a_list_of_coloured_dice_reads_as_dice_not_as_colours() -> None:
    """German and Russian wrote "2 rot, 2 rot": the colour in brackets belongs to the die before it."""
    from companion.games.words import colour_word, face_word

    red_two = msg("{face} {colour}", face=face_word(2), colour=colour_word("red"))
    dice = msg("{player} rolled {dice}.", player="Ann", dice=[red_two, red_two])
    assert "2 (rot)" in render(dice, "de")
    assert "2 (" in render(dice, "ru")
    assert render(msg("{face} {colour}", face=2, colour=colour_word("red")), "en") == "2 red"
