"""Each page in its own language: choosing it per request, rendering the API's messages in it, and the
page's own words (templates and scripts) from the same catalogues.

The language of a request is, in order: ``?lang=`` (the switch on the page sets it), the ``lang`` cookie
(the switch remembered on that device), the browser's ``Accept-Language``, then the table's default
(``[server] language`` in companion.toml). Every JSON answer of the API is passed through
:func:`companion.i18n.render.localize` on the way out, and the event stream's views are rendered once
per version and language (so eight tablets in two languages cost two renderings per change).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from flask import Flask, Response, current_app, g, request

from companion.games.messages import Msg
from companion.i18n.catalogs import DEFAULT, LANGUAGES, PSEUDO, entries, language
from companion.i18n.render import localize, render

COOKIE = "lang"
CHOOSABLE = (*LANGUAGES, PSEUDO)


def chosen(value: str | None) -> str | None:
    return value if value in CHOOSABLE else None


def request_language() -> str:
    """The language this request's page reads (see the module's docstring for the order)."""
    cached = g.get("lang")
    if cached:
        return str(cached)
    lang = chosen(request.args.get("lang")) or chosen(request.cookies.get(COOKIE))
    if lang is None:
        lang = request.accept_languages.best_match(list(LANGUAGES))
    if lang is None:
        config = current_app.extensions["companion"]["config"]
        lang = config.server.language
    g.lang = lang
    return str(lang)


def localize_response(response: Response) -> Response:
    """An API answer with its messages in the request's language (errors included)."""
    if response.mimetype == "application/json" and not response.direct_passthrough:
        data = response.get_json(silent=True)
        if data is not None:
            lang = request_language()
            response.set_data(json.dumps(localize(data, lang), ensure_ascii=False, separators=(",", ":")))
            response.headers["Content-Language"] = lang
    response.vary.update(("Accept-Language", "Cookie"))
    return response


class FrameCache:
    """Rendered event-stream frames by (version, language): each view is put in each language once."""

    def __init__(self, size: int = 32) -> None:
        self._lock = threading.Lock()
        self._frames: OrderedDict[tuple[str, int, str], str] = OrderedDict()
        self.size = size

    def frame(self, frame: str, lang: str) -> str:
        head, sep, data = frame.partition("data: ")
        if not sep or not head.startswith("id: "):
            return frame  # retry hints and keepalive comments carry no words
        payload = data.rstrip("\n")
        key = (head, hash(payload), lang)
        with self._lock:
            found = self._frames.get(key)
            if found is not None:
                self._frames.move_to_end(key)
                return found
        view = localize(json.loads(payload), lang)
        rendered = f"{head}data: {json.dumps(view, ensure_ascii=False, separators=(',', ':'))}\n\n"
        with self._lock:
            self._frames[key] = rendered
            while len(self._frames) > self.size:
                self._frames.popitem(last=False)
        return rendered


def localized_frames(frames: Iterator[str], lang: str, cache: FrameCache) -> Iterator[str]:
    for frame in frames:
        yield cache.frame(frame, lang)


# --- the page's own words ------------------------------------------------------------------------


def gettext(text: str, **params: Any) -> str:
    """Templates' ``_()``: the page's language, placeholders filled like the engines' messages."""
    return render(Msg(text, params), request_language())


def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    return render(Msg(singular, {"n": n, **params}, plural), request_language())


def bundle(lang: str) -> str:
    """The page scripts' catalogue as a script: messages, the plural rule as code (no eval), the locale."""
    code = lang if lang in CHOOSABLE else DEFAULT
    loaded = language(code)
    messages: dict[str, str | list[str]] = {}
    for msgid, plural, forms in entries(loaded.catalog):
        if plural is None:
            if forms[0] and forms[0] != msgid:
                messages[msgid] = forms[0]
        elif any(forms):
            messages[msgid] = forms
    data = {
        "lang": code,
        "locale": loaded.locale,
        "languages": LANGUAGES,
        "messages": messages,
    }
    expr = loaded.catalog.plural_expr if code != PSEUDO else "(n != 1)"
    return (
        "// generated from the gettext catalogue by companion.web.language.bundle\n"
        f"window.I18N = {json.dumps(data, ensure_ascii=False)};\n"
        f"window.I18N.plural = function (n) {{ return Number({expr}); }};\n"
    )


def install(app: Flask) -> None:
    """Templates get ``_``/``ngettext``/``page_language``; the stream's frame cache lives on the app."""
    app.jinja_env.globals.update(_=gettext, ngettext=ngettext, page_language=request_language, languages=LANGUAGES)
    app.extensions["companion"]["frames"] = FrameCache()
