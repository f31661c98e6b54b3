"""What the companion can say, by kind, and the three presets a table picks from.

Each announcement has one kind; a table (the Pi's speaker, ``[voice]``) and each tablet (its settings)
switch kinds on and off. *Lasting* kinds stay in the speaker's queue until said; the others are made
stale by the next change at the table (a highlight moved on, a reading confirmed) and are dropped.
"""

from __future__ import annotations

KINDS: tuple[str, ...] = (
    "dice",  # the dice as read or rolled: "two fives, a six and a worm"
    "unsure",  # a reading to check: "check die number 3", a die missing
    "turn",  # whose turn it is
    "ask",  # what the game asks now: "Anna: take a tile or roll again"
    "options",  # the option the buttons highlight (confirm takes it), as next cycles through them
    "move",  # what a player did (kept dice, placed dice, built...)
    "payout",  # casinos paying, tiles taken, tables cleared
    "round",  # a round's start and its summary
    "bust",  # a failed turn
    "duel",  # a duel's winner
    "boss",  # a casino's new boss
    "end",  # the end and the winner
    "undo",  # what an undo took back
    "notice",  # a refused press or a device problem
)
LASTING = frozenset({"payout", "round", "bust", "duel", "boss", "end"})
"""Kinds said even when the table has moved on; the others are dropped once the next change comes."""

PRESETS: dict[str, frozenset[str]] = {
    "quiet": frozenset({"unsure", "end", "notice"}),
    "essential": frozenset({"dice", "unsure", "turn", "payout", "round", "bust", "duel", "boss", "end", "notice"}),
    "everything": frozenset(KINDS),
}
"""``everything`` is the table played by ear: every choice the buttons cycle through is spoken."""
DEFAULT_PRESET = "essential"
