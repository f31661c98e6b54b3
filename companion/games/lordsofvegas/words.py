"""How the engine writes amounts, lots and lists of names for the players."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.games.lordsofvegas.board import LOTS


def dollars(amount: int) -> str:
    return f"${amount}"


def lots(indexes: Iterable[int]) -> str:
    return and_list([LOTS[i].name for i in indexes])


def and_list(words: Sequence[str]) -> str:
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"
