"""The contract every rules engine keeps.

A game is a pure state machine. The table is the random generator: every die face and every card
comes in as an input, so an engine never rolls, shuffles, reads a clock or touches a file. That makes
replay exact, undo a replay of one input fewer, and tests plain data.

The session talks to a game only through :class:`Rules`:

* ``Rules.setup(players, options)`` -> the first state;
* ``Rules.awaiting(state)`` -> an :class:`Awaiting`: what the table must supply next and who supplies it;
* ``Rules.legal_actions(state)`` -> the discrete actions the table may choose from now;
* ``Rules.apply(state, action)`` -> ``(new_state, events)`` or :class:`RuleViolation`;
* ``Rules.scoreboard(state)`` -> a JSON view for the tablet.

Actions are frozen dataclasses registered with the game's :class:`ActionCodec`; their JSON form is
``{"type": "<name>", ...fields}``, which is exactly what the journal stores and a game record holds.

The contract's parts live in rooms of one job each, and this module names them all, so that code
outside the engines enters here (``from companion.games.base import ...``); the engines import from
the rooms: ``inputs`` (dice, rolls, cards, JSON), ``violations`` (refusals), ``codec`` (actions as
JSON), ``words`` (faces and colours as words), ``players`` (names), ``evolve`` (copying a state).
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar

from companion.games.codec import ActionCodec
from companion.games.evolve import evolve
from companion.games.inputs import JSON, CardSpec, DiceSpec, Die, Face
from companion.games.messages import Msg, msg
from companion.games.players import MAX_NAME, check_names, name_key
from companion.games.violations import MalformedAction, RuleViolation, short
from companion.games.words import COLOUR_WORDS, FACE_WORDS, colour_word, face_word

__all__ = [
    "COLOUR_WORDS",
    "FACE_WORDS",
    "JSON",
    "MAX_NAME",
    "ActionCodec",
    "Awaiting",
    "CardSpec",
    "DiceSpec",
    "Die",
    "Event",
    "Face",
    "InputKind",
    "MalformedAction",
    "Option",
    "Outcome",
    "RuleViolation",
    "Rules",
    "colour_word",
    "evolve",
    "face_word",
    "name_key",
    "short",
]

A = TypeVar("A")
S = TypeVar("S")


@dataclass(frozen=True)
class Option(Generic[A]):
    """One legal choice, as a button on the tablet: the action, its label, and whether it is the
    usual choice (pressed by the hardware *confirm* button when nothing else is highlighted)."""

    action: A
    label: Msg
    recommended: bool = False


InputKind = Literal["dice", "choice", "card", "secret", "over"]


@dataclass(frozen=True)
class Awaiting(Generic[A]):
    """What the game needs next.

    ``kind`` says what sort of input, ``players`` whose it is (several for a simultaneous secret
    choice, tied players for a mid-action re-roll). A ``choice`` may also carry ``dice``: rolling
    again is then one of the options and a camera reading can be taken as that choice.
    """

    kind: InputKind
    players: tuple[int, ...]
    prompt: Msg
    options: tuple[Option[A], ...] = ()
    dice: DiceSpec | None = None
    card: CardSpec | None = None
    source: Literal["table", "companion"] = "table"
    """``companion``: the session supplies this input itself (a virtual deck) from the game's simulator."""


@dataclass(frozen=True)
class Event:
    """Something that happened, for the turn log, the scoreboard and the LEDs."""

    kind: str
    text: Msg
    data: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"kind": self.kind, "text": self.text.to_json(), "data": dict(self.data)}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winners (several for a shared win) and a line for the table."""

    winners: tuple[int, ...]
    text: Msg

    def to_json(self) -> JSON:
        return {"winners": list(self.winners), "text": self.text.to_json()}


class Rules(ABC, Generic[S, A]):
    """One game's rules. Variants are options passed to :meth:`setup` and carried in the state."""

    name: ClassVar[str]
    title: ClassVar[str]
    """The game's published name: a proper name, the same in every language."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    codec: ClassVar[ActionCodec[Any]]

    @abstractmethod
    def setup(self, players: Sequence[str], options: Mapping[str, JSON]) -> S:
        """The state before the first input. Raises RuleViolation for a bad player count or option."""

    @abstractmethod
    def awaiting(self, state: S) -> Awaiting[A]:
        """What the table must supply next, and who supplies it."""

    @abstractmethod
    def apply(self, state: S, action: A) -> tuple[S, list[Event]]:
        """The state after ``action`` and what happened; raises RuleViolation and changes nothing."""

    @abstractmethod
    def scoreboard(self, state: S) -> JSON:
        """A JSON view of everything the table tracks, for the tablet."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game is on."""

    def shown(self, state: S) -> JSON:
        """The scoreboard as every page may see it: without what one seat alone may see (a player's
        face-down money). The full ``scoreboard`` stays for histories of finished games."""
        return self.scoreboard(state)

    def private(self, state: S, seat: int) -> JSON:
        """What only ``seat`` may see now (its own phone): None when the game hides nothing."""
        return None

    def legal_actions(self, state: S) -> list[A]:
        """The discrete choices open now (dice rolls are described by ``awaiting().dice`` instead)."""
        return [o.action for o in self.awaiting(state).options]

    def state_to_json(self, state: S) -> JSON:
        return _dump_state(state)

    def action_from_json(self, data: JSON) -> A:
        action: A = self.codec.from_json(data)
        return action

    def action_to_json(self, action: A) -> JSON:
        return self.codec.to_json(action)

    @classmethod
    def check_options(cls, options: Mapping[str, JSON], known: Iterable[str]) -> None:
        """Refuse an option this game does not have (a typo must not silently play another variant)."""
        unknown = set(options) - set(known)
        if unknown:
            raise RuleViolation(msg("{game} has no option {options}.", game=cls.title, options=sorted(unknown)))

    @staticmethod
    def flag(options: Mapping[str, JSON], key: str) -> bool:
        """An on/off option, off when absent."""
        value = options.get(key, False)
        if not isinstance(value, bool):
            raise RuleViolation(msg("The option {option} is either on or off.", option=key))
        return value

    @classmethod
    def check_player_count(cls, players: Sequence[str]) -> None:
        if not cls.min_players <= len(players) <= cls.max_players:
            raise RuleViolation(
                msg(
                    "{game} is for {low} to {high} players, not {count}.",
                    game=cls.title,
                    low=cls.min_players,
                    high=cls.max_players,
                    count=len(players),
                )
            )
        check_names(players)


def _dump_state(value: Any) -> JSON:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _dump_state(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_dump_state(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _dump_state(v) for k, v in value.items()}
    return value
