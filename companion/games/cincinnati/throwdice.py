"""Checking one throw: five faces 1-6, and the dice a player left standing still among them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.games.cincinnati.hands import DICE, FACES
from companion.games.inputs import DiceSpec, Die
from companion.games.messages import Param, msg
from companion.games.violations import RuleViolation


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
        raise RuleViolation(msg("{player} has no dice standing yet: the first throw is all five dice.", player=name))
    if len(kept) >= DICE:
        raise RuleViolation(
            msg("Keeping all five dice is not a throw; enter a pass for {player} instead.", player=name)
        )
    have, wanted, now = Counter(before), Counter(kept), Counter(after)
    if wanted - have:
        raise RuleViolation(
            msg(
                "{player} cannot keep {kept}: the dice standing are {standing}.",
                player=name,
                kept=_list(kept),
                standing=_list(before),
            )
        )
    if wanted - now:
        raise RuleViolation(
            msg(
                "The dice {player} kept ({kept}) are not all in this throw ({thrown}); read the dice again.",
                player=name,
                kept=_list(kept),
                thrown=_list(after),
            )
        )


def _list(faces: Sequence[int]) -> Param:
    return " ".join(str(f) for f in sorted(faces, reverse=True)) or msg("none")
