"""Checking one throw: five faces 1-6, and the dice a player left standing still among them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.games.base import DiceSpec, Die, RuleViolation
from companion.games.cincinnati.hands import DICE, FACES


def spec(reason: str) -> DiceSpec:
    return DiceSpec(DICE, FACES, reason=reason)


def faces_of(dice: Sequence[Die], reason: str) -> tuple[int, ...]:
    """The faces of a reading of five dice, lowest first (colours do not matter in this game)."""
    spec(reason).check(dice)
    return tuple(sorted(int(d.face) for d in dice))


def check_kept(name: str, before: Sequence[int], after: Sequence[int], kept: Sequence[int] | None) -> None:
    """``kept`` (faces left standing) must come from the dice before the throw and still show after it."""
    if kept is None:
        return
    if not before and kept:
        raise RuleViolation(f"{name} has no dice standing yet: the first throw is all five dice.")
    if len(kept) >= DICE:
        raise RuleViolation(f"Keeping all five dice is not a throw; enter a pass for {name} instead.")
    have, wanted, now = Counter(before), Counter(kept), Counter(after)
    if wanted - have:
        raise RuleViolation(f"{name} cannot keep {_list(kept)}: the dice standing are {_list(before)}.")
    if wanted - now:
        raise RuleViolation(
            f"The dice {name} kept ({_list(kept)}) are not all in this throw ({_list(after)}); read the dice again."
        )


def _list(faces: Sequence[int]) -> str:
    return " ".join(str(f) for f in sorted(faces, reverse=True)) or "none"
