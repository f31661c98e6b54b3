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
"""

from __future__ import annotations

import dataclasses
import types
import typing
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar, Union  # noqa: UP035

from companion.games.messages import Msg, english, msg, nmsg, raw

JSON = Any
Face = int | str
"""A die face as the table reads it: 1-6, or a symbol name such as ``"worm"``."""


_SHORT = 40  # longest face or value worth echoing back or keeping
_PLAIN_DICE = 64  # most distinct bare faces kept per field (a game has a dozen at most)


def short(value: Any) -> str:
    """``repr(value)`` cut to a readable length: a message never echoes a huge input back."""
    text = repr(value)
    return text if len(text) <= _SHORT else text[: _SHORT - 3] + "..."


class RuleViolation(ValueError):
    """An input the rules do not allow now; the message is written for the players at the table.

    It carries a :class:`Msg` (``.msg``) so the page can say it in its own language; ``str()`` is English.
    """

    def __init__(self, message: Msg | str) -> None:
        # a plain str is shown as it is (in English): code outside the engines may still raise one
        self.msg = message if isinstance(message, Msg) else raw(message)
        super().__init__(english(self.msg))


class MalformedAction(RuleViolation):
    """An input that is not even well formed (unknown type, missing or wrong-typed field)."""


@dataclass(frozen=True)
class Die:
    """One die as read off the table: its top face and, where the game cares, its body colour."""

    face: Face
    colour: str | None = None

    def to_json(self) -> JSON:
        """A bare face when colour does not matter (compact records), else ``{"face", "colour"}``."""
        return {"face": self.face, "colour": self.colour} if self.colour else self.face


@dataclass(frozen=True)
class DiceSpec:
    """What a roll must contain: how many dice, which faces are possible, and which colours.

    ``colours`` is a tuple of ``(colour, count)``; an empty tuple means colour is not checked.
    """

    count: int
    faces: tuple[Face, ...]
    colours: tuple[tuple[str, int], ...] = ()
    reason: str = "roll"

    def to_json(self) -> JSON:
        return {
            "count": self.count,
            "faces": list(self.faces),
            "colours": [list(c) for c in self.colours],
            "reason": self.reason,
        }

    def check(self, dice: Sequence[Die]) -> None:
        """Raise a :class:`RuleViolation` a player can act on if ``dice`` is not such a roll."""
        if len(dice) != self.count:
            raise RuleViolation(
                nmsg(
                    "Expected {n} die but {entered} were entered; roll or count again.",
                    "Expected {n} dice but {entered} were entered; roll or count again.",
                    self.count,
                    entered=len(dice),
                )
            )
        for die in dice:
            if die.face not in self.faces:
                raise RuleViolation(
                    msg(
                        "A die cannot show {face} here; its faces are {faces}.",
                        face=face_word(die.face) if len(str(die.face)) <= _SHORT else short(die.face),
                        faces=[face_word(f) for f in self.faces],
                    )
                )
        if self.colours:
            wanted = dict(self.colours)
            seen: dict[str, int] = {}
            for die in dice:
                if die.colour is None:
                    raise RuleViolation(msg("Each die needs its colour for this roll."))
                seen[die.colour] = seen.get(die.colour, 0) + 1
            if seen != wanted:
                want = [msg("{n} {colour}", n=n, colour=colour_word(c)) for c, n in self.colours]
                raise RuleViolation(msg("This roll should be {dice}; the dice entered do not match.", dice=want))


@dataclass(frozen=True)
class CardSpec:
    """A card or banknote drawn from a physical deck: which values are still possible."""

    deck: str
    values: tuple[JSON, ...]

    def to_json(self) -> JSON:
        return {"deck": self.deck, "values": list(self.values)}


A = TypeVar("A")


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


class ActionCodec(Generic[A]):
    """Turns JSON into a game's action dataclasses and back, checking types on the way in.

    Registering a dataclass under a name is all a game does; field types drive the checks, so a
    malformed request is refused with a message before it ever reaches the rules. Each field's check
    is compiled once at registration, because replay runs it for every journalled input.
    """

    def __init__(self) -> None:
        self._by_name: dict[str, type[Any]] = {}
        self._names: dict[type[Any], str] = {}
        self._fields: dict[str, list[tuple[str, Callable[[Any, str], Any], bool]]] = {}
        self._dump_fields: dict[type[Any], tuple[str, ...]] = {}

    def register(self, name: str) -> Callable[[type[Any]], type[Any]]:
        def deco(cls: type[Any]) -> type[Any]:
            hints = typing.get_type_hints(cls)
            self._by_name[name] = cls
            self._names[cls] = name
            self._fields[name] = [
                (
                    f.name,
                    _loader(hints[f.name]),
                    f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
                )
                for f in dataclasses.fields(cls)
            ]
            self._dump_fields[cls] = tuple(f.name for f in dataclasses.fields(cls))
            return cls

        return deco

    def to_json(self, action: A) -> JSON:
        cls = type(action)
        out: dict[str, JSON] = {"type": self._names[cls]}
        for name in self._dump_fields[cls]:
            out[name] = _dump(getattr(action, name))
        return out

    def from_json(self, data: JSON) -> A:
        if not isinstance(data, Mapping):
            raise MalformedAction(msg("An action must be a JSON object."))
        name = data.get("type")
        if not isinstance(name, str) or name not in self._by_name:
            raise MalformedAction(msg("This game has no such move ({name}).", name=short(name)))
        spec = self._fields[name]
        kwargs: dict[str, Any] = {}
        for field_name, load, required in spec:
            if field_name in data:
                kwargs[field_name] = load(data[field_name], field_name)
            elif required:
                raise MalformedAction(msg("This move is missing a detail ({field}).", field=field_name))
        if len(data) - 1 > len(kwargs):
            extra = set(data) - {"type"} - {f for f, _, _ in spec}
            if extra:
                raise MalformedAction(
                    msg("This move has details it does not take ({fields}).", fields=sorted(short(f) for f in extra))
                )
        action: A = self._by_name[name](**kwargs)
        return action


def _loader(hint: Any) -> Callable[[Any, str], Any]:
    """A function checking and converting one JSON value to ``hint`` (built once per field)."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return lambda value, name: value
    if origin in (Union, types.UnionType):
        arms = [_loader(arm) for arm in typing.get_args(hint)]

        def load_union(value: Any, name: str) -> Any:
            for arm in arms:
                try:
                    return arm(value, name)
                except MalformedAction:
                    continue
            raise MalformedAction(msg("A detail of this move ({field}) is not valid.", field=name))

        return load_union
    if origin is Literal:
        allowed = typing.get_args(hint)

        def load_literal(value: Any, name: str) -> Any:
            if value in allowed:
                return value
            raise MalformedAction(msg("A detail of this move ({field}) is not valid.", field=name))

        return load_literal
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _loader(args[0])

            def load_many(value: Any, name: str) -> Any:
                if not isinstance(value, list | tuple):
                    raise MalformedAction(msg("A detail of this move ({field}) should be a list.", field=name))
                return tuple(item(v, name) for v in value)

            return load_many
        items = [_loader(a) for a in args]

        def load_fixed(value: Any, name: str) -> Any:
            if not isinstance(value, list | tuple):
                raise MalformedAction(msg("A detail of this move ({field}) should be a list.", field=name))
            if len(items) != len(value):
                raise MalformedAction(
                    nmsg(
                        "A detail of this move ({field}) should have {n} item.",
                        "A detail of this move ({field}) should have {n} items.",
                        len(items),
                        field=name,
                    )
                )
            return tuple(load(v, name) for load, v in zip(items, value, strict=True))

        return load_fixed
    if hint is Die:
        face = _loader(Face)

        plain: dict[Face, Die] = {}  # dice are immutable: one instance per bare face is enough

        def load_die(value: Any, name: str) -> Any:
            if isinstance(value, int | str) and not isinstance(value, bool):
                die = plain.get(value)
                if die is None:
                    die = Die(value)
                    # only short faces are kept: a refused input must not leave anything behind
                    if len(plain) < _PLAIN_DICE and len(str(value)) <= _SHORT:
                        plain[value] = die
                return die
            if isinstance(value, Mapping) and "face" in value:
                colour = value.get("colour")
                if colour is not None and not isinstance(colour, str):
                    raise MalformedAction(msg("A die's colour must be a name."))
                return Die(face(value["face"], name), colour)
            raise MalformedAction(msg("Each die needs a face."))

        return load_die
    if hint is type(None):

        def load_none(value: Any, name: str) -> Any:
            if value is None:
                return None
            raise MalformedAction(msg("A detail of this move ({field}) is not valid.", field=name))

        return load_none
    if hint is bool:

        def load_bool(value: Any, name: str) -> Any:
            if isinstance(value, bool):
                return value
            raise MalformedAction(msg("A detail of this move ({field}) should be yes or no.", field=name))

        return load_bool
    if hint is int:

        def load_int(value: Any, name: str) -> Any:
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            raise MalformedAction(msg("A detail of this move ({field}) should be a whole number.", field=name))

        return load_int
    if hint is str:

        def load_str(value: Any, name: str) -> Any:
            if isinstance(value, str):
                return value
            raise MalformedAction(msg("A detail of this move ({field}) should be text.", field=name))

        return load_str
    raise TypeError(f"an action field cannot have the type {hint!r}")


def _dump(value: Any) -> JSON:
    if isinstance(value, Die):
        return value.to_json()
    if isinstance(value, tuple):
        return [_dump(v) for v in value]
    return value


S = TypeVar("S")
D = TypeVar("D")


def evolve(obj: D, **changes: Any) -> D:
    """A copy of a frozen dataclass with some fields changed: ``dataclasses.replace`` without re-running
    ``__init__`` field by field, which dominated replay time. Only for dataclasses with neither
    ``__post_init__`` nor ``__slots__`` (every game state here); unknown fields are refused like
    ``replace`` does."""
    fields_now = obj.__dict__
    if not changes.keys() <= fields_now.keys():
        unknown = ", ".join(sorted(set(changes) - set(fields_now)))
        raise TypeError(f"{type(obj).__name__} has no field {unknown}")
    new = object.__new__(type(obj))
    new.__dict__.update(fields_now)
    new.__dict__.update(changes)
    return new


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
        names = [p.strip() for p in players]
        if any(not n for n in names):
            raise RuleViolation(msg("Every player needs a name."))
        if any(len(n) > MAX_NAME for n in names):
            raise RuleViolation(msg("A player's name has at most {n} characters.", n=MAX_NAME))
        if any(not n.isprintable() for n in names):
            raise RuleViolation(msg("A player's name has only visible characters (no control or invisible ones)."))
        keys = [name_key(n) for n in names]
        if len(set(keys)) != len(keys):
            raise RuleViolation(msg("Two players have the same name; give each a different one."))


# Words shared by every game: die faces that are not numbers, and the colours of dice and tiles.
FACE_WORDS: dict[str, Msg] = {"worm": msg("worm")}
COLOUR_WORDS: dict[str, Msg] = {
    "red": msg("red"),
    "white": msg("white"),
    "blue": msg("blue"),
    "green": msg("green"),
    "yellow": msg("yellow"),
    "black": msg("black"),
    "purple": msg("purple"),
    "orange": msg("orange"),
    "gold": msg("gold"),
    "silver": msg("silver"),
    "aqua": msg("aqua"),
    "brown": msg("brown"),
    "pink": msg("pink"),
    "grey": msg("grey"),
}


def face_word(face: Face) -> Msg | int:
    """A die face as a parameter: a number stays a number, a symbol is a word."""
    if isinstance(face, int):
        return face
    return FACE_WORDS.get(face) or raw(face)


def colour_word(colour: str) -> Msg:
    """A colour as a parameter: known colours are words of the catalogue, others stay as typed."""
    return COLOUR_WORDS.get(colour) or raw(colour)


MAX_NAME = 24


def name_key(name: str) -> str:
    """What makes two names the same to the players: case, width and invisible characters do not count."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(c for c in folded if unicodedata.category(c) != "Cf" and not c.isspace())


def _dump_state(value: Any) -> JSON:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _dump_state(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_dump_state(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _dump_state(v) for k, v in value.items()}
    return value
