"""The actions open in step 2 of a turn, as options for the tablet.

Every build, sprawl, remodel and reorganize the player can afford is listed. A gamble has an amount;
the options offer the largest bet at each casino (the tablet can ask for another amount), while
:func:`legal_play` lists every amount. Trades are free-form inputs and are not listed.
"""

from __future__ import annotations

from companion.games.base import Option
from companion.games.lordsofvegas.actions import Action, Build, EndTurn, Gamble, Remodel, Reorganize, Sprawl
from companion.games.lordsofvegas.board import COLOURS, LOTS
from companion.games.lordsofvegas.building import REMODEL_PER_TILE, SPRAWL_FACTOR
from companion.games.lordsofvegas.casinos import casinos
from companion.games.lordsofvegas.draw import blocked
from companion.games.lordsofvegas.gamble import gamble_targets
from companion.games.lordsofvegas.state import LordsState
from companion.games.lordsofvegas.words import dollars
from companion.games.messages import msg
from companion.games.words import colour_word as cw


def play_options(state: LordsState) -> list[Option[Action]]:
    seat = state.current
    money = state.money[seat]
    out: list[Option[Action]] = [Option(EndTurn(), msg("End the turn"), True)]
    for lot in state.marked(seat):
        cost = LOTS[lot].cost
        if cost <= money:
            for colour in COLOURS:
                if state.tiles_left(colour) > 0:
                    label = msg(
                        "Build {colour} on {lot} ({cost}, die {die})",
                        colour=cw(colour),
                        lot=LOTS[lot].name,
                        cost=dollars(cost),
                        die=LOTS[lot].die,
                    )
                    out.append(Option(Build(LOTS[lot].name, colour), label))
    found = casinos(state.board)
    sprawls: set[tuple[int, str]] = set()
    for casino in found:
        if casino.boss != seat or state.tiles_left(casino.colour) == 0:
            continue
        for lot in casino.lots:
            for nb in LOTS[lot].neighbours:
                space = state.board[nb]
                cost = SPRAWL_FACTOR * LOTS[nb].cost
                if space.tile is None and space.marker is None and not blocked(state, nb) and cost <= money:
                    sprawls.add((nb, casino.colour))
    for nb, colour in sorted(sprawls):
        label = msg(
            "Sprawl {colour} onto {lot} ({cost}, die {die})",
            colour=cw(colour),
            lot=LOTS[nb].name,
            cost=dollars(SPRAWL_FACTOR * LOTS[nb].cost),
            die=LOTS[nb].die,
        )
        out.append(Option(Sprawl(LOTS[nb].name, colour), label))
    for casino in found:
        cost = REMODEL_PER_TILE * casino.size
        if casino.boss == seat and cost <= money:
            for colour in COLOURS:
                if colour != casino.colour and state.tiles_left(colour) >= casino.size:
                    label = msg(
                        "Remodel the casino at {lot} from {old} to {colour} ({cost})",
                        lot=casino.name,
                        old=cw(casino.colour),
                        colour=cw(colour),
                        cost=dollars(cost),
                    )
                    out.append(Option(Remodel(casino.name, colour), label))
    for casino in found:
        rerolled = any(
            t.rerolled for i in casino.lots if (t := state.board[i].tile) is not None and t.owner is not None
        )
        if seat in casino.owners() and not rerolled and casino.pips() <= money:
            label = msg(
                "Reorganize the casino at {lot} ({colour}, {cost})",
                lot=casino.name,
                colour=cw(casino.colour),
                cost=dollars(casino.pips()),
            )
            out.append(Option(Reorganize(casino.name), label))
    for casino, top in gamble_targets(state):
        boss = state.players[casino.boss] if casino.boss is not None else "?"
        label = msg(
            "Gamble up to {amount} at {boss}'s casino at {lot} ({colour})",
            amount=dollars(top),
            boss=boss,
            lot=casino.name,
            colour=cw(casino.colour),
        )
        out.append(Option(Gamble(casino.name, top), label))
    return out


def legal_play(state: LordsState) -> list[Action]:
    """Every discrete action open in step 2, each gamble amount included."""
    out: list[Action] = [o.action for o in play_options(state) if not isinstance(o.action, Gamble)]
    for casino, top in gamble_targets(state):
        out += [Gamble(casino.name, amount) for amount in range(1, top + 1)]
    return out
