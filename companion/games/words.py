"""Words shared by every game: die faces that are not numbers, and the colours of dice and tiles, as
catalogue messages so that each page says them in its own language."""

from __future__ import annotations

from companion.games.messages import Msg, msg, raw

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


def face_word(face: int | str) -> Msg | int:
    """A die face as a parameter: a number stays a number, a symbol is a word."""
    if isinstance(face, int):
        return face
    return FACE_WORDS.get(face) or raw(face)


def colour_word(colour: str) -> Msg:
    """A colour as a parameter: known colours are words of the catalogue, others stay as typed."""
    return COLOUR_WORDS.get(colour) or raw(colour)


def money(amount: int) -> Msg:
    """Las Vegas and Cincinnati money as the table reads it everywhere: ``$60,000`` (``$60.000`` in Italian
    and German, ``$60 000`` in Russian): the page writes its own figures the same way (``formatMoney``)."""
    return msg("${amount}", amount=amount)
