"""What the engine tells the table in words: the roll prompt, a placement's label on its button, and
the turn log's line for a placement."""

from __future__ import annotations

from companion.games.lasvegas.state import LasVegasState, Placement
from companion.games.messages import Msg, msg, nmsg


def roll_prompt(state: LasVegasState, seat: int) -> Msg:
    """The roll prompt: the player's own dice, and the white dice still in their pool."""
    own, white = state.own_left[seat], state.white_left[seat]
    name = state.players[seat]
    if own and white:
        return nmsg(
            "{player}: roll your {n} die and {white} white.",
            "{player}: roll your {n} dice and {white} white.",
            own,
            player=name,
            white=white,
        )
    if own:
        return nmsg("{player}: roll your {n} die.", "{player}: roll your {n} dice.", own, player=name)
    return nmsg(
        "{player}: roll the {n} white die left in your pool.",
        "{player}: roll the {n} white dice left in your pool.",
        white,
        player=name,
    )


def placement_label(p: Placement, neutral: bool) -> Msg:
    """``Casino 4: 3 of yours and 1 white`` (or ``Casino 4: 3 dice`` without white dice)."""
    if not neutral:
        return nmsg("Casino {casino}: {n} die", "Casino {casino}: {n} dice", p.own, casino=p.face)
    if not p.white:
        return msg("Casino {casino}: {own} of yours", casino=p.face, own=p.own)
    if not p.own:
        return nmsg("Casino {casino}: {n} white die", "Casino {casino}: {n} white dice", p.white, casino=p.face)
    return msg("Casino {casino}: {own} of yours and {white} white", casino=p.face, own=p.own, white=p.white)


def placed_text(p: Placement, name: str) -> Msg:
    """``Anna put 3 dice and 1 white on casino 4.`` for the turn log."""
    if p.own and p.white:
        return nmsg(
            "{player} put {n} die and {white} white on casino {casino}.",
            "{player} put {n} dice and {white} white on casino {casino}.",
            p.own,
            player=name,
            white=p.white,
            casino=p.face,
        )
    if p.own:
        return nmsg(
            "{player} put {n} die on casino {casino}.",
            "{player} put {n} dice on casino {casino}.",
            p.own,
            player=name,
            casino=p.face,
        )
    return nmsg(
        "{player} put {n} white die on casino {casino}.",
        "{player} put {n} white dice on casino {casino}.",
        p.white,
        player=name,
        casino=p.face,
    )
