"""Words as data: what the engines and the session say to the table, before it is put in a language.

An engine never writes a sentence. It writes a :class:`Msg`: the English source text (which is also the
gettext message id) with ``{name}`` placeholders, and the parameters to put in them. The page's language
is chosen at the edge (``companion.i18n``), where Babel looks the id up in that language's catalogue,
picks the plural form and formats the numbers for the locale. Records and the journal keep ids and
parameters, so a game played in Russian reads back in Italian.

Parameters are plain data: text (a player's name; never translated), whole numbers (formatted for the
locale: 50,000 / 50.000 / 50 000), a nested :class:`Msg` (a colour, a face, a casino's name: translated
on its own) or a list of these (joined the locale's way: "A, B and C").

``msg`` and ``nmsg`` are the markers ``pybabel extract`` looks for, so their first arguments must be
string literals.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

Param = Union[str, int, "Msg", Sequence["Param"]]  # noqa: UP007 (a recursive alias needs the string form)
PLACEHOLDER = re.compile(r"\{(\w+)\}")
COUNT = "n"
"""The parameter a plural message counts with."""


@dataclass(frozen=True)
class Msg:
    """One text for the table: an id (its English source), parameters, and for a plural its English
    plural form (the count is the parameter ``n``)."""

    id: str
    params: Mapping[str, Param] = field(default_factory=dict)
    plural: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"msg": self.id, "params": {k: _param_json(v) for k, v in self.params.items()}}
        if self.plural is not None:
            out["plural"] = self.plural
        return out

    @classmethod
    def from_json(cls, data: Any) -> Msg:
        if not is_msg_json(data):
            raise ValueError(f"not a message: {data!r}")
        params = {str(k): _param_from_json(v) for k, v in dict(data.get("params") or {}).items()}
        plural = data.get("plural")
        return cls(str(data["msg"]), params, str(plural) if plural is not None else None)

    def __str__(self) -> str:
        return english(self)


def msg(text: str, /, **params: Param) -> Msg:
    """A message; ``text`` is English with ``{name}`` placeholders for ``params``."""
    return Msg(text, params)


def nmsg(singular: str, plural: str, n: int, /, **params: Param) -> Msg:
    """A message whose words depend on the count ``n`` (available to the text as ``{n}``)."""
    return Msg(singular, {COUNT: n, **params}, plural)


def raw(text: str) -> Msg:
    """Text that is not in any catalogue (a name, a message from outside): shown as it is."""
    return Msg("{text}", {"text": text})


def is_msg_json(data: Any) -> bool:
    return isinstance(data, Mapping) and isinstance(data.get("msg"), str) and set(data) <= {"msg", "params", "plural"}


def _param_json(value: Param) -> Any:
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, str | int):
        return value
    return [_param_json(v) for v in value]


def _param_from_json(value: Any) -> Param:
    if is_msg_json(value):
        return Msg.from_json(value)
    if isinstance(value, list):
        return [_param_from_json(v) for v in value]
    if isinstance(value, str | int) and not isinstance(value, bool):
        return value
    raise ValueError(f"not a message parameter: {value!r}")


def english(message: Msg) -> str:
    """The English text, without any catalogue (the id is English): for the console and the logs."""
    n = message.params.get(COUNT)
    text = message.plural if message.plural is not None and n != 1 else message.id
    return fill(text, message.params, english_param)


def english_param(value: Param) -> str:
    if isinstance(value, Msg):
        return english(value)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, str):
        return value
    return english_list([english_param(v) for v in value])


def english_list(items: Sequence[str]) -> str:
    """Babel's English list pattern, so the console and an English page agree."""
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + ", and " + items[-1]


def fill(text: str, params: Mapping[str, Any], show: Any) -> str:
    """Put each ``{name}`` of ``text`` in place; an unknown placeholder stays as it is written."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        return show(params[name]) if name in params else match.group(0)

    return PLACEHOLDER.sub(one, text)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))
