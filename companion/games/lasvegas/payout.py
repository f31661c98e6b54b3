"""How one casino pays out at the end of a round.

Every group of owners with the same number of dice on the casino is out, whatever their rank; the
others take the notes highest first, one each, most dice first. The neutral (white) dice count as one
more owner: they can break up a tie or make one, and whatever they win goes under the deck, as do the
notes nobody takes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.games.lasvegas.banknotes import highest_first
from companion.games.messages import Msg, Param, msg, nmsg
from companion.games.words import money

WHITE = -1
"""The seat number the neutral dice are paid under."""


@dataclass(frozen=True)
class Share:
    """An owner who was not tied, their dice on the casino and the note they took (None: none left)."""

    seat: int
    dice: int
    note: int | None


@dataclass(frozen=True)
class Tie:
    """Owners with the same number of dice on the casino: all of them go away empty-handed."""

    dice: int
    seats: tuple[int, ...]


@dataclass(frozen=True)
class CasinoPayout:
    casino: int
    notes: tuple[int, ...]
    """The notes the casino held, highest first."""
    ranked: tuple[Share, ...]
    """Untied owners, most dice first."""
    ties: tuple[Tie, ...]
    """Tied groups, most dice first."""
    under: tuple[int, ...]
    """Notes that go under the deck: those nobody took and those the white dice won."""

    def won_by(self, seat: int) -> int | None:
        for share in self.ranked:
            if share.seat == seat:
                return share.note
        return None


def _seat_order(seat: int) -> tuple[bool, int]:
    return (seat == WHITE, seat)


def pay(casino: int, notes: Sequence[int], dice: Mapping[int, int]) -> CasinoPayout:
    """The payout of ``casino`` holding ``notes`` with ``dice[seat]`` dice per owner (WHITE included)."""
    by_count: dict[int, list[int]] = {}
    for seat, n in dice.items():
        if n > 0:
            by_count.setdefault(n, []).append(seat)
    ordered = sorted(by_count.items(), reverse=True)
    ties = tuple(Tie(n, tuple(sorted(seats, key=_seat_order))) for n, seats in ordered if len(seats) > 1)
    untied = [(n, seats[0]) for n, seats in ordered if len(seats) == 1]
    pile = list(highest_first(notes))
    ranked: list[Share] = []
    under: list[int] = []
    for n, seat in untied:
        note = pile.pop(0) if pile else None
        ranked.append(Share(seat, n, note))
        if seat == WHITE and note is not None:
            under.append(note)
    under.extend(pile)
    return CasinoPayout(casino, highest_first(notes), tuple(ranked), ties, highest_first(under))


def describe(payout: CasinoPayout, names: Sequence[str]) -> Msg:
    """One line for the table, e.g. ``Casino 4: Anna 80,000 and Denny 30,000; Benno and Carla tied with 2
    dice, out; 10,000 under the deck.`` Amounts stay numbers, so each language writes them its way."""

    def who(seat: int) -> Param:
        return msg("the white dice") if seat == WHITE else names[seat]

    parts: list[Param] = []
    paid = [s for s in payout.ranked if s.note is not None]
    if paid:
        parts.append([msg("{player} {amount}", player=who(s.seat), amount=money(s.note or 0)) for s in paid])
    for tie in payout.ties:
        parts.append(
            nmsg(
                "{players} tied with {n} die, out",
                "{players} tied with {n} dice, out",
                tie.dice,
                players=[who(s) for s in tie.seats],
            )
        )
    empty = [s for s in payout.ranked if s.note is None]
    if empty:
        parts.append(msg("no banknote left for {players}", players=[who(s.seat) for s in empty]))
    if payout.under:
        parts.append(msg("{amounts} under the deck", amounts=[money(a) for a in payout.under]))
    if not parts:
        return msg("Casino {casino}: no dice and no banknotes.", casino=payout.casino)
    if not payout.ranked and not payout.ties:
        parts.insert(0, msg("no dice"))
    joined: Param = parts[0]
    for part in parts[1:]:
        joined = msg("{first}; {then}", first=joined, then=part)
    return msg("Casino {casino}: {payout}.", casino=payout.casino, payout=joined)
