"""The spoken sentences: written for the ear and for espeak-ng, in the catalogues like every other text.

A sentence on the page may say "1 Würfel"; a voice reading it says "eins Würfel". So what is spoken has
sentences of its own: a single thing is a word ("a six", "eine Sechs", "одна шестёрка"), never the digit
1, and a Russian count stands where the number keeps its nominative. Larger numbers and money stay
digits, without grouping (:func:`speakable`): espeak-ng and the browsers read "60000" as "sixty
thousand", "sechzigtausend", "sessantamila", "шестьдесят тысяч" (a Russian "60 000" is read digit by
digit).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.messages import Msg, Param, msg, nmsg


def speakable(message: Msg) -> Msg:
    """``message`` with every number but a plural's count written as plain digits (no "60,000")."""
    return Msg(message.id, {k: _digits(k, v) for k, v in message.params.items()}, message.plural)


def _digits(name: str, value: Param) -> Param:
    if isinstance(value, Msg):
        return speakable(value)
    if isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value if name == "n" and abs(value) < 1000 else str(value)  # a count picks the plural form
    return [_digits("", v) for v in value]


def face_group(face: Any, n: int) -> Msg:  # noqa: C901 (one branch per face: each is its own words)
    """``n`` dice showing ``face``, as said aloud: "a five", "two fives", "three fives"."""
    if face == "worm":
        return msg("a worm") if n == 1 else msg("two worms") if n == 2 else nmsg("{n} worm", "{n} worms", n)
    if face == 1:
        return msg("a one") if n == 1 else msg("two ones") if n == 2 else nmsg("{n} one", "{n} ones", n)
    if face == 2:
        return msg("a two") if n == 1 else msg("two twos") if n == 2 else nmsg("{n} two", "{n} twos", n)
    if face == 3:
        return msg("a three") if n == 1 else msg("two threes") if n == 2 else nmsg("{n} three", "{n} threes", n)
    if face == 4:
        return msg("a four") if n == 1 else msg("two fours") if n == 2 else nmsg("{n} four", "{n} fours", n)
    if face == 5:
        return msg("a five") if n == 1 else msg("two fives") if n == 2 else nmsg("{n} five", "{n} fives", n)
    if face == 6:
        return msg("a six") if n == 1 else msg("two sixes") if n == 2 else nmsg("{n} six", "{n} sixes", n)
    return msg("{face} times {n}", face=str(face), n=n)


FACE_ORDER = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, "worm": 6}


def dice_words(faces: Sequence[Any]) -> list[Msg]:
    """Faces grouped and ordered as a player says them: two fives, a six and a worm."""
    counts: dict[Any, int] = {}
    for face in faces:
        counts[face] = counts.get(face, 0) + 1
    return [face_group(f, counts[f]) for f in sorted(counts, key=lambda f: FACE_ORDER.get(f, 9))]


def die_face(die: Any) -> Any:
    return die.get("face") if isinstance(die, Mapping) else die


def coloured_dice(dice: Sequence[Any], player: str) -> Msg:
    """A Las Vegas roll: the player's own dice, then the white ones."""
    own = [die_face(d) for d in dice if not (isinstance(d, Mapping) and d.get("colour") == "white")]
    white = [die_face(d) for d in dice if isinstance(d, Mapping) and d.get("colour") == "white"]
    if own and white:
        return msg("{player} rolls {dice}; white: {white}.", player=player, dice=dice_words(own),
                   white=dice_words(white))
    if white:
        return msg("{player} rolls white: {white}.", player=player, white=dice_words(white))
    return msg("{player} rolls {dice}.", player=player, dice=dice_words(own))


def millions(n: int) -> Msg:
    """Lords of Vegas money, said in full ("$12M" is read "dollar twelve M")."""
    return msg("one million dollars") if n == 1 else nmsg("{n} million dollars", "{n} million dollars", n)


def worms_turn(player: str, worms: int) -> Msg:
    if not worms:
        return msg("{player}'s turn.", player=player)
    return nmsg("{player}'s turn, with one worm.", "{player}'s turn, with {n} worms.", worms, player=player)


def option_place(casino: int, own: int, white: int, neutral: bool) -> Msg:
    """A Las Vegas placement as the buttons highlight it."""
    if not neutral:
        return msg("Casino {casino}: one die", casino=casino) if own == 1 else msg(
            "Casino {casino}: {n} dice", casino=casino, n=own)
    yours = msg("one of yours") if own == 1 else nmsg("{n} of yours", "{n} of yours", own)
    whites = msg("one white") if white == 1 else nmsg("{n} white", "{n} white", white)
    if not white:
        return msg("Casino {casino}: {white}", casino=casino, white=yours)
    if not own:
        return msg("Casino {casino}: {white}", casino=casino, white=whites)
    return msg("Casino {casino}: {own} and {white}", casino=casino, own=yours, white=whites)


def highlighted(option: Param, index: int, count: int) -> Msg:
    """The option *confirm* takes, and where it is among those *next* cycles through."""
    if count == 1:
        return msg("{option}, the only choice.", option=option)
    return nmsg("{option}, {index} of {n}.", "{option}, {index} of {n}.", count, option=option, index=index)
