"""Money is written one way: ``$60,000`` in the locale's digits, in prompts, banknote and card labels,
payout lines and outcomes alike (the issue found "60k", "Banknote 60,000" and "$60,000" side by side)."""

from __future__ import annotations

import re

import pytest

from companion.games import get_rules
from companion.games.cincinnati.cards import label
from companion.games.words import money
from companion.i18n.render import render

WRITTEN = {"en": "$60,000", "it": "$60.000", "de": "$60.000", "ru": "$60\u00a0000"}


@pytest.mark.parametrize("lang", sorted(WRITTEN))
def test_money_is_dollars_in_the_locale_s_digits(lang: str) -> None:
    assert render(money(60_000), lang) == WRITTEN[lang]
    assert render(label(60_000), lang) == WRITTEN[lang]  # a Cincinnati card reads like any money


@pytest.mark.parametrize("lang", sorted(WRITTEN))
def test_las_vegas_banknotes_and_prompts_write_money_the_same_way(lang: str) -> None:
    rules = get_rules("lasvegas")
    state = rules.setup(["Ann", "Bob"], {})
    awaiting = rules.awaiting(state)
    labels = [render(o.label, lang) for o in awaiting.options]
    assert any(WRITTEN[lang] in text for text in labels), labels
    assert all("$" in text for text in labels), labels
    assert "$0" in render(awaiting.prompt, lang)  # casino 1 holds $0 before its first note
    state, events = rules.apply(state, awaiting.options[-1].action)
    assert re.search(r"\$\d", render(events[0].text, lang)), render(events[0].text, lang)


def test_a_number_that_is_not_money_has_no_dollar() -> None:
    rules = get_rules("heckmeck")
    state = rules.setup(["Ann", "Bob"], {})
    assert "$" not in render(rules.awaiting(state).prompt, "en")
