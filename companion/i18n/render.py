"""Putting messages into a language: the one place where ids become words.

A message travels as JSON (``{"msg": id, "params": {...}, "plural": ...}``, see
``companion.games.messages``). :func:`render` looks the id up in the language's catalogue (the plural
form by the count ``n``), then fills each placeholder: whole numbers in the locale's digits
(``50.000`` in Italian, ``50 000`` in Russian), nested messages rendered the same way, lists joined the
locale's way (``A, B e C``), text (a player's name) as it is. :func:`localize` does that to every
message inside a view, leaving everything else untouched.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal

from companion.games.messages import COUNT, Msg, fill, is_msg_json
from companion.i18n.catalogs import Language, language


def render(message: Msg | Mapping[str, Any], lang: str) -> str:
    """``message`` (a :class:`Msg` or its JSON form) in the language ``lang``."""
    data = message.to_json() if isinstance(message, Msg) else message
    return _render(data, language(lang))


def _render(data: Mapping[str, Any], lang: Language) -> str:
    params = data.get("params") or {}
    plural = data.get("plural")
    if plural is not None:
        n = params.get(COUNT, 0)
        text = lang.ngettext(str(data["msg"]), str(plural), int(n) if isinstance(n, int) else 0)
    else:
        text = lang.gettext(str(data["msg"]))
    return fill(text, params, lambda value: _param(value, lang))


def _param(value: Any, lang: Language) -> str:
    if is_msg_json(value):
        return _render(value, lang)
    if isinstance(value, Msg):
        return _render(value.to_json(), lang)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        if abs(value) >= 10**15:  # beyond any score; Babel's decimals cannot format such a number
            return str(value)[:40]
        return _number(value, lang.babel_locale)
    if isinstance(value, list | tuple):
        items = [_param(v, lang) for v in value]
        return str(format_list(items, locale=lang.babel_locale)) if items else ""
    return str(value)


@lru_cache(maxsize=4096)
def _number(value: int, locale: Locale) -> str:
    """Scores and counts repeat in every view: each is put in a locale's digits once."""
    return str(format_decimal(value, locale=locale))


def localize(value: Any, lang: str) -> Any:
    """A copy of a JSON value with every message in it rendered in ``lang``."""
    return _walk(value, language(lang))


def _walk(value: Any, lang: Language) -> Any:
    if value is None or isinstance(value, str | int | float):  # most of a view: the cheap checks first
        return value
    if isinstance(value, list):
        return [_walk(v, lang) for v in value]
    if isinstance(value, Mapping):
        if is_msg_json(value):
            return _render(value, lang)
        return {k: _walk(v, lang) for k, v in value.items()}
    return value
