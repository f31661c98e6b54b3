"""The table's languages: gettext catalogues (``locales/<lang>/LC_MESSAGES/messages.po``) read with Babel.

The message ids are the English source texts, so English needs no lookup and a message missing from a
catalogue still reads (in English). Catalogues are compiled in memory to gettext translations when
first used: Babel reads the ``.po`` and the standard gettext machinery picks plural forms by the
catalogue's own plural rule (Russian's three forms, for instance).

``qps`` is a pseudo-locale made from the English ids (accented and 40% longer) to find text that
overflows or was never put through a catalogue; it is never offered to the table.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALES = Path(__file__).parent / "locales"
DOMAIN = "messages"
LANGUAGES: dict[str, str] = {"en": "English", "it": "Italiano", "ru": "Русский", "de": "Deutsch"}
"""The languages a table can choose, each named in itself (for the switch on the page)."""
DEFAULT = "en"
PSEUDO = "qps"
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "msg": None,
    "nmsg": (1, 2),
    "_": None,
    "ngettext": (1, 2),
    "T": None,  # web/static/odds.js calls _() and ngettext() through these short aliases
    "N": (1, 2),
}
"""The marker functions ``pybabel extract`` looks for: engines use ``msg``/``nmsg``, pages ``_``/``ngettext``."""
METHODS = [
    ("web/static/vendor/**", "ignore"),
    ("companion/**.py", "python"),
    ("web/templates/**.html", "jinja2"),
    ("web/static/**.js", "javascript"),
]
"""Where the words are: the same mapping as ``babel.cfg``."""
OPTIONS = {"web/static/**.js": {"parse_template_string": "true"}}
"""Scripts build text in template literals too: look for ``_()`` inside their ``${...}``."""


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(lang: str) -> Catalog:
    with open(po_path(lang), "rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


@dataclass(frozen=True)
class Language:
    """One language ready to render: its gettext translations and the catalogue they came from."""

    code: str
    locale: str  # what Babel formats numbers and lists with
    translations: Translations
    catalog: Catalog

    @cached_property
    def babel_locale(self) -> Locale:
        """Parsed once: Babel would otherwise build a Locale, under its one global lock, for every
        number it formats (every tablet's stream formats dozens per change)."""
        return Locale.parse(self.locale)

    def gettext(self, text: str) -> str:
        found = self.translations.gettext(text)
        if found == text:
            # the same words may be a plural entry elsewhere (a page's ngettext("worm", "worms")):
            # gettext keys that entry by its forms, so look up its singular form
            found = self.translations.ngettext(text, text, 1)
        return found

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)


_lock = threading.Lock()
_loaded: dict[str, Language] = {}


def language(code: str) -> Language:
    """The language ``code`` (one of :data:`LANGUAGES` or the pseudo-locale), loaded once."""
    with _lock:
        found = _loaded.get(code)
        if found is None:
            found = _loaded[code] = _load(code)
        return found


def _load(code: str) -> Language:
    if code == PSEUDO:
        catalog = pseudo_catalog(read_catalog(DEFAULT))
        return Language(code, DEFAULT, _compile(catalog), catalog)
    if code not in LANGUAGES:
        raise KeyError(code)
    catalog = read_catalog(code)
    return Language(code, code, _compile(catalog), catalog)


def _compile(catalog: Catalog) -> Translations:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def entries(catalog: Catalog) -> Iterator[tuple[str, str | None, list[str]]]:
    """``(id, plural id or None, translated forms)`` for every message of a catalogue."""
    for message in catalog:
        if not message.id:
            continue  # the header
        if isinstance(message.id, tuple | list):
            forms = list(message.string) if isinstance(message.string, tuple | list) else [message.string]
            yield str(message.id[0]), str(message.id[1]), [str(f or "") for f in forms]
        else:
            yield str(message.id), None, [str(message.string or "")]


# --- the pseudo-locale ---------------------------------------------------------------------------

_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)


def pseudo(text: str) -> str:
    """``Roll {n} dice`` -> ``[Ŕöĺĺ {n} đîçé ~~~~~]``: accented outside placeholders, 40% longer, bracketed
    so a clipped end shows."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        out.append(ch if depth else ch.translate(_ACCENTS))
    body = "".join(out)
    pad = "~" * max(1, round(len(text) * 0.4) - 2)
    return f"[{body} {pad}]"


def pseudo_catalog(english: Catalog) -> Catalog:
    catalog = Catalog(locale="en", domain=DOMAIN)
    for message in english:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            catalog.add(message.id, (pseudo(str(message.id[0])), pseudo(str(message.id[1]))))
        else:
            catalog.add(message.id, pseudo(str(message.id)))
    return catalog
