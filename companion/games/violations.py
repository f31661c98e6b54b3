"""Refusing an input: what the rules do not allow now, and what is not even a well-formed move.

The message is written for the players at the table; the session shows it and changes nothing."""

from __future__ import annotations

from typing import Any

from companion.games.messages import Msg, english, raw

SHORT = 40  # longest face or value worth echoing back or keeping


def short(value: Any) -> str:
    """``repr(value)`` cut to a readable length: a message never echoes a huge input back."""
    text = repr(value)
    return text if len(text) <= SHORT else text[: SHORT - 3] + "..."


class RuleViolation(ValueError):
    """An input the rules do not allow now; the message is written for the players at the table.

    It carries a :class:`Msg` (``.msg``) so the page can say it in its own language; ``str()`` is English.
    """

    def __init__(self, message: Msg | str) -> None:
        # a plain str is shown as it is (in English): code outside the engines may still raise one
        self.msg = message if isinstance(message, Msg) else raw(message)
        super().__init__(english(self.msg))


class MalformedAction(RuleViolation):
    """An input that is not even well formed (unknown type, missing or wrong-typed field)."""
