"""Actions as JSON and back: a game registers its action dataclasses, and their field types drive the
checks, so a malformed request is refused with a message before it reaches the rules."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Generic, Literal, TypeVar, Union  # noqa: UP035

from companion.games.inputs import JSON, Die, Face
from companion.games.messages import msg, nmsg
from companion.games.violations import SHORT, MalformedAction, short

PLAIN_DICE = 64  # most distinct bare faces kept per field (a game has a dozen at most)

A = TypeVar("A")


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
                    if len(plain) < PLAIN_DICE and len(str(value)) <= SHORT:
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
