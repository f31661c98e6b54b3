"""The 36 game cards: money, duel and "2 chips" cards, and the chips they hand out.

A card is a plain JSON value: the amount for a money card (15000 ... 35000), ``"duel"`` or ``"chips"``.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.messages import Msg, Param, msg
from companion.games.words import money

Card = int | str

DUEL = "duel"
CHIPS = "chips"
MONEY_VALUES: tuple[int, ...] = (15_000, 20_000, 25_000, 30_000, 35_000)
KINDS: tuple[Card, ...] = (*MONEY_VALUES, DUEL, CHIPS)
"""Every kind of card, in the order the tablet lists them."""

COPIES: dict[Card, int] = {15_000: 6, 20_000: 5, 25_000: 5, 30_000: 4, 35_000: 4, DUEL: 6, CHIPS: 6}
DECK: tuple[Card, ...] = tuple(kind for kind in KINDS for _ in range(COPIES[kind]))
DECK_SIZE = len(DECK)  # 36

CHIPS_IN_GAME = 20
START_CHIPS = 3
CHIPS_PER_CARD = 2
CHIP_VALUE = 5_000
SET_ASIDE_WITH_THREE = 12
"""With three players a third of the deck is put aside unseen before the game."""


def is_money(card: Card) -> bool:
    return isinstance(card, int)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in the canonical order of :data:`KINDS` (money lowest first, then duel, then chips)."""
    return tuple(sorted(cards, key=KINDS.index))


def remove_one(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def label(card: Card) -> Msg:
    """A card as the table says it: its amount (written the locale's way), a duel card or 2 chips."""
    if isinstance(card, int):
        return money(card)
    return msg("duel card") if card == DUEL else msg("2 chips")


def labels(cards: Iterable[Card]) -> Param:
    shown: list[Param] = [label(c) for c in cards]
    return shown if shown else msg("nothing")


def parse(value: object) -> Card | None:
    """The card a JSON value names, or None. Accepts ``25000``, ``"25000"``, ``"25,000"``, ``"duel"``, ``"chips"``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value in MONEY_VALUES else None
    if isinstance(value, str):
        text = value.strip().lower().replace(",", "").replace(".", "")
        if text in (DUEL, CHIPS):
            return text
        if text in ("2 chips", "2chips", "gettoni"):
            return CHIPS
        if text.isdigit() and int(text) in MONEY_VALUES:
            return int(text)
    return None
