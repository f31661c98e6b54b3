"""Game records: a game as JSON lines, and the replay that turns one into a final state.

Line 1 is the header (format, version, game, players, options); every further line is one journal
entry: ``{"type": "input", "action": {...}}``, ``{"type": "undo"}`` or ``{"type": "redo"}``, each with
optional ``device`` and ``at``. The journal exports exactly this, so a record is also a backup. An
export of a finished game ends with one ``{"type": "summary", "stats": {...}}`` line: the end-of-game
statistics, for readers of the file; replay and import skip it (they work the numbers out again).
See docs/game-record.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games import get_rules
from companion.games.base import Event, Rules, RuleViolation
from companion.games.messages import Msg, msg, raw

FORMAT = "vegas-table-companion/record"
VERSION = 1
ENTRY_TYPES = ("input", "undo", "redo")
SUMMARY = "summary"


def reason_of(exc: Exception) -> Msg | str:
    """A refusal's message as data when the rules gave one (so an import error reads in the page's language)."""
    return exc.msg if isinstance(exc, RuleViolation) else str(exc)


class RecordError(ValueError):
    """A record that cannot be replayed; the message names the line and the reason."""

    def __init__(self, line: int, reason: str | Msg) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = str(reason)
        self.msg = msg("line {line}: {reason}", line=line, reason=reason if isinstance(reason, Msg) else raw(reason))


@dataclass(frozen=True)
class Header:
    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    title: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
        }
        if self.title:
            out["title"] = self.title
        return out

    @classmethod
    def from_json(cls, data: Any) -> Header:
        if not isinstance(data, Mapping):
            raise ValueError("the header must be a JSON object")
        if data.get("format") != FORMAT:
            raise ValueError(f"not a game record (format should be {FORMAT!r})")
        if data.get("version") != VERSION:
            raise ValueError(f"record version {data.get('version')!r} is not supported (this is {VERSION})")
        game, players, options = data.get("game"), data.get("players"), data.get("options", {})
        if not isinstance(game, str):
            raise ValueError("the header needs the game's name")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError("the header needs the players as a list of names")
        if not isinstance(options, Mapping):
            raise ValueError("options must be a JSON object")
        title = data.get("title", "")
        return cls(game, tuple(players), dict(options), title if isinstance(title, str) else "")


def check_entry(entry: Any) -> dict[str, Any]:
    """The entry itself if it is well formed, else ValueError saying what is wrong."""
    if not isinstance(entry, dict):
        raise ValueError("each entry must be a JSON object")
    kind = entry.get("type")
    if kind not in ENTRY_TYPES:
        raise ValueError(f"entry type must be one of {', '.join(ENTRY_TYPES)}, not {kind!r}")
    if kind == "input" and "action" not in entry:
        raise ValueError("an input entry needs its action")
    device, at = entry.get("device", ""), entry.get("at", "")
    if not (isinstance(device, str) and isinstance(at, str)):
        raise ValueError("'device' and 'at' must be text")
    return entry


@dataclass
class Step:
    """One effective input: the entry, the state after it and the events it produced."""

    entry: dict[str, Any]
    state: Any
    events: list[Event]


class Timeline:
    """The effective history of one game: undo pops a step onto the redo stack, redo re-applies it.

    Keeping every intermediate state makes undo O(1) and lets the page show the turn log; states are
    immutable and share structure, so this costs little.
    """

    def __init__(self, rules: Rules[Any, Any], header: Header) -> None:
        self.rules = rules
        self.header = header
        self.initial = rules.setup(header.players, header.options)
        self.steps: list[Step] = []
        self.redo_stack: list[Step] = []
        self.entries = 0

    @property
    def state(self) -> Any:
        return self.steps[-1].state if self.steps else self.initial

    def check(self, entry: Mapping[str, Any], *, canonical: bool = True) -> Step | None:
        """What ``entry`` would do, without doing it; RuleViolation if it is not allowed now.

        ``canonical`` respells the action as the rules do (for new inputs; replay keeps the record's)."""
        kind = entry["type"]
        if kind == "undo":
            if not self.steps:
                raise RuleViolation(msg("There is nothing to undo."))
            return None
        if kind == "redo":
            if not self.redo_stack:
                raise RuleViolation(msg("There is nothing to redo."))
            return None
        action = self.rules.action_from_json(entry["action"])
        state, events = self.rules.apply(self.state, action)
        if not canonical:
            return Step(entry if isinstance(entry, dict) else dict(entry), state, events)
        # store the action as the rules spell it, so records are canonical whatever the client sent
        return Step({**entry, "action": self.rules.action_to_json(action)}, state, events)

    def commit(self, entry: Mapping[str, Any], step: Step | None) -> list[Event]:
        """Make a checked entry part of the history."""
        self.entries += 1
        kind = entry["type"]
        if kind == "undo":
            undone = self.steps.pop()
            self.redo_stack.append(undone)
            return [Event("undone", msg("Undone: {what}", what=describe(undone)), {})]
        if kind == "redo":
            redone = self.redo_stack.pop()
            self.steps.append(redone)
            return [Event("redone", msg("Redone: {what}", what=describe(redone)), {}), *redone.events]
        assert step is not None
        self.steps.append(step)
        self.redo_stack.clear()
        return step.events

    def feed(self, entry: Mapping[str, Any]) -> list[Event]:
        """Replay one stored entry."""
        return self.commit(entry, self.check(entry, canonical=False))


def describe(step: Step) -> Msg:
    """A short line for what a step did: its first event, or the action type."""
    if step.events:
        return step.events[0].text
    return raw(str(step.entry.get("action", {}).get("type", "input")))


MAX_DEPTH = 16  # deeper than any action, header or entry needs; deeper is refused before it is used
MAX_BYTES = 8 * 1024 * 1024  # a record, at most (a 3-hour game is a few hundred KB)


def nesting(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (counted without recursion, so any depth is safe)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                todo.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def loads(text: str) -> Any:
    """One JSON value, or ValueError saying in a player's words why it is not one we take."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg})") from None
    except (ValueError, RecursionError):  # a number of thousands of digits, or nesting past the parser's limit
        raise ValueError("not JSON this companion takes (a number too long or lists nested too deep)") from None
    if nesting(value) > MAX_DEPTH:
        raise ValueError(f"lists or objects nested more than {MAX_DEPTH} deep")
    return value


def read_lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each non-blank line; the first line that is not JSON stops it."""
    numbered = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    values = parse_many([line for _, line in numbered])
    if values is not None and all(nesting(v) <= MAX_DEPTH for v in values):
        yield from zip((n for n, _ in numbered), values, strict=True)
        return
    for number, line in numbered:
        try:
            yield number, loads(line)
        except ValueError as exc:
            raise RecordError(number, str(exc)) from None


def parse_many(texts: list[str]) -> list[Any] | None:
    """Parse many JSON texts in one call (replay's hot path), or None if any is not one JSON value.

    One ``json.loads`` over the joined array costs a fraction of thousands of separate calls; the
    length check catches a line that would smuggle in extra values (``1, 2``).
    """
    try:
        values = json.loads("[" + ",".join(texts) + "]")
    except (ValueError, RecursionError):  # not JSON, a number too long, nesting too deep
        return None
    return values if isinstance(values, list) and len(values) == len(texts) else None


def replay_lines(lines: Iterable[str]) -> Timeline:
    """Replay a record; the first bad line stops it with a RecordError naming that line."""
    timeline: Timeline | None = None
    for number, data in read_lines(lines):
        if timeline is None:
            try:
                header = Header.from_json(data)
                timeline = Timeline(get_rules(header.game), header)
            except (ValueError, RuleViolation) as exc:
                raise RecordError(number, reason_of(exc)) from None
            continue
        if is_summary(data):
            continue
        try:
            timeline.feed(check_entry(data))
        except (ValueError, RuleViolation) as exc:
            raise RecordError(number, reason_of(exc)) from None
    if timeline is None:
        raise RecordError(1, msg("the record is empty; it needs at least a header line"))
    return timeline


def is_summary(data: Any) -> bool:
    """A record's closing summary line (statistics only: nothing to replay)."""
    return isinstance(data, dict) and data.get("type") == SUMMARY


def summary_line(timeline: Timeline) -> str | None:
    """The closing line of a finished game's export: its end-of-game statistics (None while it is on)."""
    if timeline.rules.outcome(timeline.state) is None:
        return None
    from companion.store.stats import game_stats

    return json.dumps({"type": SUMMARY, "stats": game_stats(timeline)}, separators=(",", ":"))


def final_view(timeline: Timeline) -> dict[str, Any]:
    from companion.store.stats import game_stats

    rules, state = timeline.rules, timeline.state
    outcome = rules.outcome(state)
    return {
        "game": timeline.header.game,
        "players": list(timeline.header.players),
        "options": dict(timeline.header.options),
        "entries": timeline.entries,
        "inputs": len(timeline.steps),
        "over": outcome is not None,
        "outcome": None if outcome is None else outcome.to_json(),
        "state": rules.state_to_json(state),
        "scoreboard": rules.scoreboard(state),
        "stats": game_stats(timeline),
    }


def read_record(path: str | Path) -> list[str]:
    """A record file's lines; RecordError for anything that is not a record-sized UTF-8 text file
    (a byte-order mark is allowed)."""
    if Path(path).exists() and not Path(path).is_file():
        raise RecordError(1, "this is not a file (a device or a folder?)")
    with open(path, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise RecordError(1, f"the file is larger than a game record can be ({MAX_BYTES // 1024 // 1024} MB)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RecordError(line, "not UTF-8 text (is this a game record?)") from None
    return text.splitlines()


def replay_file(path: str | Path) -> dict[str, Any]:
    return final_view(replay_lines(read_record(path)))
