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
from collections.abc import Callable
from dataclasses import dataclass, field
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
    if response.mimetype == "application/json" and not response.direct_passthrough and not g.get("localized"):
        data = response.get_json(silent=True)
        if data is not None:
            lang = request_language()
            response.set_data(json.dumps(localize(data, lang), ensure_ascii=False, separators=(",", ":")))
            response.headers["Content-Language"] = lang
    response.vary.update(("Accept-Language", "Cookie"))
    return response


@dataclass(eq=False)
class _Rendered:
    """One (version, language) frame: the first stream to need it renders it, the others wait for it."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    view: str = ""  # the localized view's JSON (``/api/state``'s answer)
    frame: bytes | None = None  # the event-stream frame that carries it


class FrameCache:
    """Rendered event-stream frames by (version, language): each view is put in each language once,
    and every page in that language is sent the very same bytes.

    Every stream wakes up for the same change at the same moment; without waiting for the one that
    renders, 200 tablets would each render the view (200 renderings per change, seconds of CPU a
    second at 20 inputs a second), and pages would fall further behind the longer the game."""

    def __init__(self, size: int = 32) -> None:
        self._lock = threading.Lock()
        self._frames: OrderedDict[tuple[int, int, str], _Rendered] = OrderedDict()
        self.size = size

    def frame(self, version: int, data: str, lang: str) -> bytes:
        """The frame of view ``data`` (its JSON, as the hub published it) in ``lang``."""
        frame = self._rendered(version, data, lang).frame
        assert frame is not None
        return frame

    def view(self, version: int, data: str, lang: str) -> str:
        """View ``data`` in ``lang`` as JSON text: the same rendering the pages in ``lang`` were sent."""
        return self._rendered(version, data, lang).view

    def _rendered(self, version: int, data: str, lang: str) -> _Rendered:
        key = (version, hash(data), lang)  # the hub hands every stream the same string: hashed once
        with self._lock:
            slot = self._frames.get(key)
            if slot is None:
                slot = self._frames[key] = _Rendered()
                while len(self._frames) > self.size:
                    self._frames.popitem(last=False)
            else:
                self._frames.move_to_end(key)
        with slot.lock:  # one renders; the streams behind it take its bytes
            if slot.frame is None:
                slot.view = json.dumps(localize(json.loads(data), lang), ensure_ascii=False, separators=(",", ":"))
                slot.frame = f"id: {version}\nevent: view\ndata: {slot.view}\n\n".encode()
            return slot

    def renderer(self, lang: str) -> Callable[[int, str], bytes]:
        """What :meth:`companion.web.hub.Hub.stream` calls for each of a ``lang`` page's views."""
        return lambda version, data: self.frame(version, data, lang)


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
