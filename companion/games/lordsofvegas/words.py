"""How the engine names amounts, lots and lists of names as message parameters (see ``messages``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.games.lordsofvegas.board import LOTS
from companion.games.messages import Msg, Param, msg


def dollars(amount: int) -> Msg:
    """Money is counted in millions on the board and the track: ``$12M`` (each language writes it its way)."""
    return msg("${amount}M", amount=amount)


def lots(indexes: Iterable[int]) -> Param:
    return and_list([LOTS[i].name for i in indexes])


def and_list(words: Sequence[Param]) -> Param:
    """Several names as one parameter (joined the page's way), or "nothing"."""
    return list(words) if words else msg("nothing")
