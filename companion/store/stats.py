"""End-of-game statistics: the story of a game told from its replay and the journal's timestamps.

Everything comes from the effective steps of a game's timeline (``companion.store.record.Timeline``;
undone inputs do not count): the states give the scores after every input, the events give the dice
each player threw, and each journal entry's ``at`` gives the time. The result is plain JSON (numbers,
seats, ids); the page words it.

Dice luck compares each player's faces with fair dice: a chi-square test over the six faces (5
degrees of freedom) says how unusual the spread is; the mean face's
distance from the fair mean in standard errors (``z``) says whether it ran high or low, and the
"luckiest roller" is the player whose faces ran highest (Heckmeck counts a worm as 5). The p-value is
the chi-square distribution's closed form for whole degrees of freedom (Abramowitz & Stegun 26.4.4
and 26.4.5), checked against ``scipy.stats.chi2`` in the tests; importing SciPy would cost the daemon
seconds and tens of megabytes on a Pi for one number.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from companion.games.base import Die, Event

HECKMECK_FACES: tuple[Any, ...] = (1, 2, 3, 4, 5, "worm")
PLAIN_FACES: tuple[Any, ...] = (1, 2, 3, 4, 5, 6)


def _value(face: Any) -> int:
    return 5 if face == "worm" else int(face)


# --- scores ------------------------------------------------------------------------------------


def scores(game: str, state: Any) -> dict[str, list[int]]:
    """The running totals worth charting, per series name, one value per seat."""
    if game == "heckmeck":
        return {"worms": [sum((t - 17) // 4 for t in stack) for stack in state.stacks]}
    if game == "lasvegas":
        return {"money": [state.money(s) for s in range(len(state.players))]}
    if game == "cincinnati":
        return {"money": [p.score for p in state.players]}
    if game == "lordsofvegas":
        return {"points": list(state.points), "money": list(state.money)}
    return {}


# --- dice ---------------------------------------------------------------------------------------


def _faces(dice: Sequence[Any]) -> list[Any]:
    return [d["face"] if isinstance(d, dict) else d for d in dice]


def thrown(game: str, before: Any, entry: dict[str, Any], events: list[Event]) -> list[tuple[int, list[Any]]]:
    """(seat, faces) of the dice each player actually threw in one step (dice left standing are not
    thrown again; a Cincinnati re-throw without its ``kept`` dice recorded is left out)."""
    out: list[tuple[int, list[Any]]] = []
    action = entry.get("action") or {}
    for e in events:
        d = e.data
        if game in ("heckmeck", "lasvegas") and e.kind in ("rolled", "spare_whites"):
            out.append((int(d["player"]), _faces(d["dice"])))
        elif game == "cincinnati" and e.kind in ("throw", "duel_throw"):
            seat = int(d["player"])
            if e.kind == "throw":
                standing = before.players[seat].dice
            else:
                standing = before.duel.dice_of(seat) if before.duel is not None else ()
            kept = action.get("kept")
            if not standing:
                out.append((seat, list(d["dice"])))
            elif kept is not None:
                rest: Counter[int] = Counter(d["dice"]) - Counter(kept)
                out.append((seat, list(rest.elements())))
        elif game == "lordsofvegas" and e.kind in ("reorg_rolled", "tie_rolled"):
            colours = {c: s for s, c in enumerate(before.colours)}
            per: dict[int, list[Any]] = {}
            for die in d["dice"]:
                colour = die.get("colour") if isinstance(die, dict) else None
                if colour in colours:
                    per.setdefault(colours[colour], []).append(die["face"])
            out.extend(sorted(per.items()))
        elif game == "lordsofvegas" and e.kind == "gamble_result":
            out.append((int(d["player"]), _faces(action.get("dice", []))))
    return out


def chi2_sf(x: float, dof: int) -> float:
    """The chance that a chi-square variable with ``dof`` (whole) degrees of freedom exceeds ``x``."""
    if x <= 0:
        return 1.0
    if dof % 2 == 0:  # A&S 26.4.5: e^(-x/2) * sum_{r < dof/2} (x/2)^r / r!
        term = total = 1.0
        for r in range(1, dof // 2):
            term *= x / 2 / r
            total += term
        return min(1.0, math.exp(-x / 2) * total)
    chi = math.sqrt(x)  # A&S 26.4.4: 2Q(chi) + 2 phi(chi) * sum_{r=1}^{(dof-1)/2} chi^(2r-1) / (1*3*...*(2r-1))
    term, total = chi, 0.0
    for r in range(1, (dof - 1) // 2 + 1):
        if r > 1:
            term *= x / (2 * r - 1)
        total += term
    density = math.exp(-x / 2) / math.sqrt(2 * math.pi)
    return min(1.0, math.erfc(chi / math.sqrt(2)) + 2 * density * total)


def luck(faces: Sequence[Any], labels: Sequence[Any]) -> dict[str, Any]:
    """How one player's faces compare with fair dice."""
    n = len(faces)
    counts = [sum(1 for f in faces if f == label) for label in labels]
    values = [_value(label) for label in labels]
    fair_mean = sum(values) / len(values)
    fair_var = sum(v * v for v in values) / len(values) - fair_mean**2
    out: dict[str, Any] = {"dice": n, "faces": list(labels), "counts": counts, "fair_mean": fair_mean}
    if n == 0:
        return {**out, "mean": None, "z": None, "chi2": None, "p": None}
    mean = sum(_value(f) for f in faces) / n
    expected = n / len(labels)
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return {
        **out,
        "mean": mean,
        "z": (mean - fair_mean) / math.sqrt(fair_var / n),
        "chi2": stat,
        "p": chi2_sf(stat, len(labels) - 1),
    }


# --- time ---------------------------------------------------------------------------------------


def _when(entry: dict[str, Any]) -> datetime | None:
    at = entry.get("at")
    if not isinstance(at, str):
        return None
    try:
        return datetime.fromisoformat(at)
    except ValueError:
        return None


def _actor(rules: Any, state: Any) -> int | None:
    players = rules.awaiting(state).players
    return players[0] if len(players) == 1 else None


# --- the whole story ---------------------------------------------------------------------------


def game_stats(timeline: Any) -> dict[str, Any]:
    """Scores over the game, dice luck, the biggest swing, time per turn and per player, and the
    game's own figures (Heckmeck failed turns, Las Vegas money per casino)."""
    rules, header = timeline.rules, timeline.header
    game, players = header.game, list(header.players)
    n = len(players)
    labels = HECKMECK_FACES if game == "heckmeck" else PLAIN_FACES
    first = scores(game, timeline.initial)
    series: dict[str, dict[str, Any]] = {
        name: {"name": name, "steps": [0], "at": [None], "values": [list(v)]} for name, v in first.items()
    }
    rolled: list[list[Any]] = [[] for _ in range(n)]
    swing: dict[str, Any] | None = None
    busts = [0] * n
    per_casino = [[0] * 6 for _ in range(n)]
    turns: list[dict[str, Any]] = []
    before = timeline.initial
    last_time: datetime | None = None
    timed = False  # any time between inputs known (records made by ``simulate`` carry none)
    for i, step in enumerate(timeline.steps, start=1):
        at = _when(step.entry)
        actor = _actor(rules, before)
        if actor is not None:
            if not (turns and turns[-1]["seat"] == actor and turns[-1]["open"]):
                turns.append({"seat": actor, "seconds": 0.0, "step": i, "open": True})
            if at is not None and last_time is not None:
                turns[-1]["seconds"] += max((at - last_time).total_seconds(), 0.0)
                timed = True
        if turns and _actor(rules, step.state) != actor:
            turns[-1]["open"] = False
        if at is not None:
            last_time = at
        for seat, faces in thrown(game, before, step.entry, step.events):
            rolled[seat].extend(faces)
        for e in step.events:
            if game == "heckmeck" and e.kind == "failed":
                busts[int(e.data["player"])] += 1
            if game == "lasvegas" and e.kind == "payout":
                for share in e.data.get("paid", []):
                    seat, note = share.get("seat"), share.get("note")
                    if isinstance(seat, int) and 0 <= seat < n and note:
                        per_casino[seat][int(e.data["casino"]) - 1] += note
        now = scores(game, step.state)
        for name, values in now.items():
            s = series[name]
            previous = s["values"][-1]
            if values != previous:
                for seat in range(n):
                    delta = values[seat] - previous[seat]
                    if name == next(iter(now)) and (swing is None or abs(delta) > abs(swing["delta"])):
                        swing = {"seat": seat, "delta": delta, "step": i, "at": step.entry.get("at"), "series": name}
                s["steps"].append(i)
                s["at"].append(step.entry.get("at"))
                s["values"].append(list(values))
        before = step.state
    dice = [{"seat": seat, **luck(rolled[seat], labels)} for seat in range(n)]
    ranked = [d for d in dice if d["z"] is not None]
    luckiest = max(ranked, key=lambda d: d["z"])["seat"] if ranked else None
    per_player = []
    for seat in range(n):
        mine = [t["seconds"] for t in turns if t["seat"] == seat]
        per_player.append(
            {
                "seat": seat,
                "turns": len(mine),
                "seconds": sum(mine) if timed else None,
                "mean_seconds": sum(mine) / len(mine) if mine and timed else None,
                "longest_seconds": max(mine) if mine and timed else None,
            }
        )
    all_turns = [t["seconds"] for t in turns]
    out: dict[str, Any] = {
        "game": game,
        "players": players,
        "over": rules.outcome(timeline.state) is not None,
        "inputs": len(timeline.steps),
        "series": list(series.values()),
        "dice": dice,
        "luckiest": luckiest,
        "swing": swing,
        "time": {
            "seconds": sum(all_turns) if timed else None,
            "turns": len(all_turns),
            "mean_turn_seconds": sum(all_turns) / len(all_turns) if all_turns and timed else None,
            "per_player": per_player,
        },
    }
    if game == "heckmeck":
        out["busts"] = busts
    if game == "lasvegas":
        out["money_per_casino"] = per_casino
    return out


__all__ = ["Die", "game_stats", "luck", "scores", "thrown"]
