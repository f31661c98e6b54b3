"""How one casino pays out at the end of a round.

Every group of owners with the same number of dice on the casino is out, whatever their rank; the
others take the notes highest first, one each, most dice first. The neutral (white) dice count as one
more owner: they can break up a tie or make one, and whatever they win goes under the deck, as do the
notes nobody takes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.games.lasvegas.banknotes import highest_first, money

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


def describe(payout: CasinoPayout, names: Sequence[str]) -> str:
    """One line for the table, e.g. ``Casino 4: Anna 80,000, Denny 30,000; Benno and Carla tied, out;
    10,000 under the deck.``"""

    def who(seat: int) -> str:
        return "the white dice" if seat == WHITE else names[seat]

    parts: list[str] = []
    paid = [s for s in payout.ranked if s.note is not None]
    if paid:
        parts.append(", ".join(f"{who(s.seat)} {money(s.note or 0)}" for s in paid))
    for tie in payout.ties:
        parts.append(f"{_and(who(s) for s in tie.seats)} tied with {tie.dice}, out")
    empty = [s for s in payout.ranked if s.note is None]
    if empty:
        parts.append(f"no note left for {_and(who(s.seat) for s in empty)}")
    if payout.under:
        parts.append(f"{_and(money(v) for v in payout.under)} under the deck")
    if not parts:
        return f"Casino {payout.casino}: no dice and no notes."
    if not payout.ranked and not payout.ties:
        parts.insert(0, "no dice")
    return f"Casino {payout.casino}: " + "; ".join(parts) + "."


def _and(items: Iterable[str]) -> str:
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
