"""The state of a Cincinnati game: cards on the tables, what each player holds, the throws and duels.

Frozen dataclasses of plain values, so a state is hashable, comparable and turns into JSON as is.
A player's chosen table lives here from the moment it is entered; hiding it until everyone has
chosen is the view's job (see ``view.py``), and the events of a choice never name the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.games.cincinnati.cards import CHIP_VALUE, Card
from companion.games.messages import Msg

ROUNDS = 12
REGULAR_THROWS = 3
Phase = Literal["cards", "choose", "throw", "buy", "duel", "challenge", "over"]
"""``cards`` phase 1; ``choose``, ``throw`` and ``buy`` phase 2; ``duel`` a tie-break duel (phase 3) or a
card duel (phase 4); ``challenge`` a duel card's holder naming an opponent (phase 4)."""


@dataclass(frozen=True)
class Player:
    name: str
    chips: int
    money: tuple[int, ...] = ()  # money cards, highest first
    duel_cards: int = 0  # duel cards won this round, to be played in phase 4
    table: str | None = None  # this round's table; secret until every player has chosen
    dice: tuple[int, ...] = ()  # this round's throw, lowest first; () before the first throw

    @property
    def cash(self) -> int:
        """Money cards only: what counts during the game (chips count at the end)."""
        return sum(self.money)

    @property
    def score(self) -> int:
        """Money cards and chips at 5,000 each: what counts at the end."""
        return self.cash + CHIP_VALUE * self.chips


@dataclass(frozen=True)
class Duel:
    """A duel in progress: throws go round ``order``, three each, then chip throws round the same order.

    ``reason`` is ``"tie"`` for duellists tied for the best throw at ``table`` (phase 3) or ``"card"``
    for a duel card's ``holder`` against the opponent they named (phase 4).
    """

    reason: Literal["tie", "card"]
    order: tuple[int, ...]  # duellists in throwing order
    dice: tuple[tuple[int, ...], ...]  # each duellist's dice, parallel to ``order``; () before the first throw
    table: str | None = None
    holder: int | None = None
    turns: int = 0  # regular throws (and passes) made so far; ``order[turns % k]`` is next
    asked: int | None = None  # after the regular throws: index into ``order`` of who may buy a throw
    stopped: int = 0  # duellists in a row who stopped buying throws; all of them ends the duel

    @property
    def regular_turns(self) -> int:
        return REGULAR_THROWS * len(self.order)

    @property
    def current(self) -> int:
        """The duellist who throws (or decides) next."""
        if self.asked is not None:
            return self.order[self.asked]
        return self.order[self.turns % len(self.order)]

    @property
    def throw_number(self) -> int:
        """1-3 for the regular throws, 4 for chip throws."""
        if self.asked is not None:
            return REGULAR_THROWS + 1
        return self.turns // len(self.order) + 1

    def dice_of(self, seat: int) -> tuple[int, ...]:
        return self.dice[self.order.index(seat)]


@dataclass(frozen=True)
class Clearing:
    """What happened at one table in phase 3, for the scoreboard."""

    table: str
    players: tuple[int, ...]
    winner: int | None
    cards: tuple[Card, ...]
    text: Msg
    round: int = 0  # the round it belongs to: its results stay on show into the next round


@dataclass(frozen=True)
class CincinnatiState:
    players: tuple[Player, ...]
    tables: tuple[str, ...]  # ("A", "B", "C"), or ("A", "C") with three players
    virtual_deck: bool
    round: int
    phase: Phase
    unseen: tuple[Card, ...]  # not yet revealed: the deck (and with three players the cards put aside)
    on_tables: tuple[tuple[Card, ...], ...]  # parallel to ``tables``, in the order laid down
    discard: tuple[Card, ...]
    supply: int  # chips not held by any player
    dealt: int = 0  # phase 1: cards revealed this round so far
    throw: int = 0  # phase 2: 1-3 the regular throws, 4 and up the chip throws
    pending: tuple[int, ...] = ()  # phase 2: players still to throw this time, in throwing order
    passes_open: bool = False  # phase 2: a pass may still be declared (nobody has re-thrown yet)
    buyers: tuple[int, ...] = ()  # phase ``buy``: players who paid a chip for the next throw
    clearing: int = 0  # phase 3: index into ``tables`` of the table being cleared
    duel: Duel | None = None
    duel_queue: tuple[int, ...] = ()  # phase 4: duel card holders still to duel, once per card
    cleared: tuple[Clearing, ...] = ()  # this round's phase 3 so far

    @property
    def seats(self) -> range:
        return range(len(self.players))

    @property
    def cards_to_reveal(self) -> int:
        """Cards still to come onto the tables this game (the set-aside cards never come)."""
        return (ROUNDS - self.round + 1) * len(self.tables) - self.dealt

    def table_cards(self, table: str) -> tuple[Card, ...]:
        return self.on_tables[self.tables.index(table)]
