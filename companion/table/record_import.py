"""Taking in a game record from elsewhere: the whole record checked by replay, then stored as a new
game in one transaction (all or nothing)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from companion.games import get_rules
from companion.games.base import RuleViolation
from companion.games.messages import msg
from companion.store.journal import Journal
from companion.store.record import Header, RecordError, Timeline, check_entry, is_summary, read_lines, reason_of
from companion.table.titles import check_title


def import_record(journal: Journal, lines: Iterable[str], at: str) -> int:
    """Check a whole record by replay, then store it as a new game (all or nothing); its id."""
    header: Header | None = None
    timeline: Timeline | None = None
    entries: list[dict[str, Any]] = []
    for number, data in read_lines(lines):
        try:
            if header is None:
                header = Header.from_json(data)
                check_title(header.title)
                timeline = Timeline(get_rules(header.game), header)
                continue
            if is_summary(data):
                continue  # statistics written by an export: worked out again, never stored
            assert timeline is not None
            entry = check_entry(data)
            timeline.feed(entry)
            entries.append(entry)
        except (ValueError, RuleViolation) as exc:
            raise RecordError(number, reason_of(exc)) from None
    if header is None:
        raise RecordError(1, msg("the record is empty; it needs at least a header line"))
    assert timeline is not None
    outcome = timeline.rules.outcome(timeline.state)
    summary = json.dumps(outcome.text.to_json(), ensure_ascii=False) if outcome else ""
    # one transaction: a crash never leaves half a game behind
    return journal.import_game(header, at, entries, finished=outcome is not None, summary=summary)
