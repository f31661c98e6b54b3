"""Find every message the code uses and bring the catalogues up to date (``python -m companion.i18n.extract``).

It does what ``pybabel extract -F babel.cfg -k msg -k nmsg:1,2`` then ``pybabel update`` do, with the
settings in one place (``catalogs.KEYWORDS`` and ``METHODS``) so the tests check the same list: new ids
are added to every catalogue untranslated (English shows until a translator fills them in), ids no
longer used are dropped, and the English catalogue is filled with the ids themselves.
``--check`` changes nothing and exits 1 when a catalogue is out of date.
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from companion.i18n.catalogs import DEFAULT, DOMAIN, KEYWORDS, LANGUAGES, METHODS, OPTIONS, po_path, read_catalog

ROOT = Path(__file__).resolve().parents[2]


def extract(root: Path = ROOT) -> Catalog:
    """Every message id in the code (engines, session, templates, page scripts), as a template catalogue."""
    template = Catalog(domain=DOMAIN, project="Vegas Table Companion", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(root),
        method_map=METHODS,
        options_map=OPTIONS,
        keywords=KEYWORDS,
        comment_tags=("i18n:",),
        strip_comment_tags=True,
    ):
        if isinstance(message, tuple) and message[0] is None:
            continue  # a marker called with a variable, not a literal: nothing to translate
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def updated(lang: str, template: Catalog) -> Catalog:
    """The language's catalogue with exactly the template's ids (translations kept where they exist)."""
    path = po_path(lang)
    catalog = read_catalog(lang) if path.exists() else Catalog(locale=lang, domain=DOMAIN)
    catalog.update(copy.deepcopy(template), no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    for message in catalog:
        # Babel marks an entry fuzzy when an id turns from singular to plural (or back); gettext would then
        # skip it. The forms are checked by tests/test_i18n.py instead.
        message.flags.discard("fuzzy")
    catalog.fuzzy = False  # a fuzzy header would be skipped when compiled, and with it the plural rule
    catalog.project = "Vegas Table Companion"
    catalog.copyright_holder = "the Vegas Table Companion authors"
    catalog.header_comment = (
        f"# The table's words in {LANGUAGES[lang]} ({lang}). See docs/i18n.md.\n"
        "# Ids are the English source texts; regenerate with python -m companion.i18n.extract."
    )
    if lang == DEFAULT:
        for message in catalog:
            if message.id:
                message.string = message.id if isinstance(message.id, str) else tuple(message.id)
    return catalog


def write(lang: str, catalog: Catalog) -> None:
    path = po_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        write_po(handle, catalog, width=100, sort_by_file=True, ignore_obsolete=True, include_lineno=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0].replace("``", ""))  # plain in --help
    parser.add_argument("--check", action="store_true", help="report missing or extra ids; change nothing")
    args = parser.parse_args(argv)
    template = extract()
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    stale = False
    for lang in LANGUAGES:
        catalog = updated(lang, template)
        if args.check:
            have = {m.id if isinstance(m.id, str) else m.id[0] for m in read_catalog(lang) if m.id}
            missing, extra = ids - have, have - ids
            if missing or extra:
                stale = True
                print(f"{lang}: {len(missing)} missing, {len(extra)} extra", file=sys.stderr)
            continue
        write(lang, catalog)
        print(f"{po_path(lang)}: {len([m for m in catalog if m.id])} messages")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
